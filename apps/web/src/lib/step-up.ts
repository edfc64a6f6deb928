/**
 * Step-up from any call: the API answers 911 (stepUpRequired) to a sensitive action when the
 * session's last sign-in or step-up is older than STEP_UP_MINUTES. The API client then asks here;
 * the step-up dialog (mounted once, beside the toaster) registers how to ask the user, and the
 * call is made again once they confirmed it is them. The form that made the call stays as it
 * was: the call is still pending while the dialog is open.
 */

type Ask = () => Promise<boolean>;

let ask: Ask | undefined;
let pending: Promise<boolean> | undefined;

/** The dialog registers itself; answers how to unregister. */
export function setStepUpHandler(handler: Ask): () => void {
  ask = handler;
  return () => {
    if (ask === handler) ask = undefined;
  };
}

/**
 * Asks the user to confirm it is them: true once they did, false when they cancelled (or nothing
 * can ask). Calls that need it at the same time share one question.
 */
export function askForStepUp(): Promise<boolean> {
  if (!ask) return Promise.resolve(false);
  pending ??= ask().finally(() => {
    pending = undefined;
  });
  return pending;
}
