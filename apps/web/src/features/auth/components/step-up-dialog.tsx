import { lazy, Suspense, useEffect, useState } from 'react';
import { withPhrases } from '../../../lib/i18n.tsx';
import { setStepUpHandler } from '../../../lib/step-up.ts';

/** The form itself, loaded the first time a step-up is asked for (most sessions never are). */
const StepUpForm = lazy(() => withPhrases(['security'], import('./step-up-form.tsx')));

/**
 * The question a sensitive action asks when the sign-in is older than STEP_UP_MINUTES (API error
 * 911): mounted once in the signed-in shell, opened by the API client (lib/step-up.ts), above
 * whatever dialog or form made the call, which waits and then goes ahead, or fails with "not done"
 * when the user cancels.
 */
export function StepUpDialog() {
  const [question, setQuestion] = useState<{ answer: (ok: boolean) => void }>();
  useEffect(() => setStepUpHandler(() => new Promise<boolean>((answer) => setQuestion({ answer }))), []);
  if (!question) return null;
  const close = (ok: boolean) => {
    question.answer(ok);
    setQuestion(undefined);
  };
  return (
    <Suspense fallback={null}>
      <StepUpForm onDone={() => close(true)} onCancel={() => close(false)} />
    </Suspense>
  );
}
