import { ENDPOINTS } from '@sac/contract/endpoints';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../app-context.ts';
import { registerEndpoint } from '../../lib/endpoint-route.ts';
import { approverStanding } from './approver-cool-down.ts';
import * as auth from './auth.service.ts';
import * as mfa from './mfa.service.ts';
import * as mfaSignIn from './mfa-sign-in.service.ts';
import * as sso from './sso.service.ts';
import * as ssoSettings from './sso-settings.service.ts';
import * as sessions from './staff-sessions.service.ts';
import * as stepUp from './step-up.service.ts';

/** The console origin a browser names (Origin header), for the passkey's relying-party id. */
const originOf = (request: FastifyRequest): string | undefined => {
  const o = request.headers.origin;
  return typeof o === 'string' ? o : undefined;
};

export function authRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerEndpoint(app, ctx, ENDPOINTS.login, (c) => auth.login(ctx, c, c.body));
  registerEndpoint(app, ctx, ENDPOINTS.loginSecondStep, (c) => mfaSignIn.secondStep(ctx, c, c.body));
  registerEndpoint(app, ctx, ENDPOINTS.loginPasskeyOptions, (c) =>
    mfaSignIn.signInPasskeyOptions(ctx, c.body.Ticket, originOf(c.request)),
  );
  registerEndpoint(app, ctx, ENDPOINTS.loginEnrolTotp, (c) => mfaSignIn.signInTotpStart(ctx, c.body.Ticket));
  registerEndpoint(app, ctx, ENDPOINTS.loginEnrolTotpConfirm, (c) =>
    mfaSignIn.signInTotpConfirm(ctx, c, c.body),
  );
  registerEndpoint(app, ctx, ENDPOINTS.loginEnrolPasskeyOptions, (c) =>
    mfaSignIn.signInPasskeyRegistrationOptions(ctx, c.body.Ticket, originOf(c.request)),
  );
  registerEndpoint(app, ctx, ENDPOINTS.loginEnrolPasskey, (c) =>
    mfaSignIn.signInPasskeyRegister(ctx, c, c.body),
  );
  registerEndpoint(app, ctx, ENDPOINTS.ssoSignInOptions, () => sso.ssoSignInOptions(ctx));
  registerEndpoint(app, ctx, ENDPOINTS.ssoStart, () => sso.ssoStart(ctx));
  registerEndpoint(app, ctx, ENDPOINTS.ssoFinish, (c) => sso.ssoFinish(ctx, c, c.body));
  registerEndpoint(app, ctx, ENDPOINTS.ssoSettings, () => ssoSettings.ssoSettings(ctx));
  registerEndpoint(app, ctx, ENDPOINTS.ssoSettingsUpdate, (c) =>
    ssoSettings.updateSsoSettings(ctx, c, c.body),
  );
  registerEndpoint(app, ctx, ENDPOINTS.ssoTest, (c) => ssoSettings.testSsoIssuer(ctx, c.body.Issuer));
  registerEndpoint(app, ctx, ENDPOINTS.myFactors, (c) => mfa.myFactors(ctx, c.session));
  registerEndpoint(app, ctx, ENDPOINTS.totpEnrolStart, (c) => mfa.myTotpStart(ctx, c, c.body));
  registerEndpoint(app, ctx, ENDPOINTS.totpEnrolConfirm, (c) => mfa.myTotpConfirm(ctx, c, c.body));
  registerEndpoint(app, ctx, ENDPOINTS.totpRemove, (c) => mfa.myTotpRemove(ctx, c, c.body));
  registerEndpoint(app, ctx, ENDPOINTS.passkeyOptions, (c) =>
    mfa.myPasskeyOptions(ctx, c, { ...c.body, origin: originOf(c.request) }),
  );
  registerEndpoint(app, ctx, ENDPOINTS.passkeyAdd, (c) => mfa.myPasskeyAdd(ctx, c, c.body));
  registerEndpoint(app, ctx, ENDPOINTS.passkeyRename, (c) => mfa.myPasskeyRename(ctx, c, c.body));
  registerEndpoint(app, ctx, ENDPOINTS.passkeyRemove, (c) => mfa.myPasskeyRemove(ctx, c, c.body));
  registerEndpoint(app, ctx, ENDPOINTS.recoveryCodesRenew, (c) => mfa.myRecoveryCodesRenew(ctx, c, c.body));
  registerEndpoint(app, ctx, ENDPOINTS.stepUpStatus, (c) => stepUp.stepUpStatus(ctx, c.session));
  registerEndpoint(app, ctx, ENDPOINTS.stepUpPasskeyOptions, (c) =>
    stepUp.stepUpPasskeyOptions(ctx, c.session, originOf(c.request)),
  );
  registerEndpoint(app, ctx, ENDPOINTS.stepUp, (c) => stepUp.stepUp(ctx, c, c.body));
  registerEndpoint(app, ctx, ENDPOINTS.staffFactorsReset, (c) => mfa.resetStaffFactors(ctx, c, c.body));
  registerEndpoint(app, ctx, ENDPOINTS.logout, (c) => auth.logout(ctx, c));
  registerEndpoint(app, ctx, ENDPOINTS.session, async (c) => {
    const session = c.session;
    // Whether the approval cool-down of a new SuperAdmin still holds them back, for the console to say so.
    const approver = session.permissions.has('impersonation.approve')
      ? await approverStanding(ctx.db, session.uid, ctx.clock.now(), ctx.config.approverCoolDownMs)
      : { canApproveFrom: null };
    return {
      ...auth.sessionInfo(session),
      CanApproveImpersonationFrom: approver.canApproveFrom?.toISOString() ?? null,
    };
  });
  registerEndpoint(app, ctx, ENDPOINTS.forgotPassword, (c) => auth.forgotPassword(ctx, c, c.body));
  registerEndpoint(app, ctx, ENDPOINTS.resetPassword, (c) => auth.resetPassword(ctx, c, c.body));
  registerEndpoint(app, ctx, ENDPOINTS.mySessions, (c) => sessions.mySessions(ctx, c.session));
  registerEndpoint(app, ctx, ENDPOINTS.endMySessions, (c) => sessions.endMySessions(ctx, c, c.body));
  registerEndpoint(app, ctx, ENDPOINTS.staffSessions, (c) =>
    sessions.staffSessions(ctx, c.session, c.query.uid),
  );
  registerEndpoint(app, ctx, ENDPOINTS.endStaffSessions, (c) => sessions.endStaffSessions(ctx, c, c.body));
  registerEndpoint(app, ctx, ENDPOINTS.changePassword, (c) => auth.changePassword(ctx, c, c.body));
}
