/**
 * What a staff member is told when an impersonation session cannot go on. Apart from the
 * session's schemas (impersonation-session.ts): the console's API client, loaded with the sign-in
 * screen, needs these words and none of the schemas.
 */
export const IMPERSONATION_SESSION_MESSAGES = {
  noGrant: 'You have no approved, unexpired impersonation of this site.',
  ended: 'The impersonation has ended: it expired or was revoked.',
  outOfScope: 'This call is outside the impersonated site or its approved permissions.',
  billingNeeded:
    'Changing the plan or the trial needs the ManageBilling permission, which this impersonation was not granted.',
} as const;
