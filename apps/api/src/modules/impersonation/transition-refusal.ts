import { TRANSITION_ERRORS, type TransitionError } from '@sac/contract/impersonation';
import { AppError } from '../../lib/app-error.ts';

/** Answers a transition the state machine refuses: 409 for the state, 403 for the actor, else 400. */
export function refuse(error: TransitionError): never {
  const text = TRANSITION_ERRORS[error];
  if (['notPending', 'notApproved', 'expired', 'deleted', 'consentGiven'].includes(error)) {
    throw new AppError('impersonationConflict', text);
  }
  if (['ownRequest', 'notApprover', 'notInitiator'].includes(error))
    throw new AppError('impersonationForbidden', text);
  throw new AppError('impersonationInvalid', text);
}
