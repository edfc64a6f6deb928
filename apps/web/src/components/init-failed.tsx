import { MESSAGES } from '@sac/contract/messages';

/** The full-page message when start-up fails (spec section 2). */
export function InitFailed() {
  return (
    <main className="init-failed">
      <div className="init-failed-card" role="alert">
        <span className="overlay-icon" aria-hidden="true" />
        <h1 className="init-failed-title">{MESSAGES.initializationFailed}</h1>
      </div>
    </main>
  );
}
