import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  availableActions,
  displayStatus,
  type ImpersonationEvent,
  isReachableShape,
  type RequestState,
  TRANSITION_ERRORS,
  transition,
} from './impersonation.ts';
import { MESSAGES } from './messages.ts';

const T0 = Date.UTC(2026, 5, 1, 9);
const pending = (over: Partial<RequestState> = {}): RequestState => ({
  status: 'Pending',
  deleted: false,
  initiator: 'req@example.com',
  assignees: ['boss@example.com'],
  consent: 'pending',
  priority: 'High',
  description: 'Debug the login flow',
  proxyRoles: ['Developer', 'Analyst'],
  additionalPermissions: ['ViewData', 'EditData'],
  durationMinutes: 60,
  expiresAt: null,
  approvedRoles: [],
  approvedPermissions: [],
  ...over,
});
const approve = (
  over: Partial<Extract<ImpersonationEvent, { type: 'approve' }>> = {},
): ImpersonationEvent => ({
  type: 'approve',
  actor: 'boss@example.com',
  actorIsApprover: true,
  roles: ['Developer'],
  permissions: ['ViewData'],
  durationMinutes: 60,
  ...over,
});
const apply = (s: RequestState, e: ImpersonationEvent, now = T0) => transition(s, e, now);
const ok = (r: ReturnType<typeof transition>) => {
  if (!r.ok) throw new Error(`expected ok, got ${r.error}`);
  return r.state;
};

describe('approve', () => {
  it('needs the customer consent, in the spec words', () => {
    expect(apply(pending(), approve())).toEqual({ ok: false, error: 'noConsent' });
    expect(TRANSITION_ERRORS.noConsent).toBe(MESSAGES.customerNotGrantedImpersonation);
  });
  it('needs roles and a duration of whole minutes from 1 to 43,200', () => {
    const s = pending({ consent: 'granted' });
    expect(apply(s, approve({ roles: [] }))).toEqual({ ok: false, error: 'rolesRequired' });
    for (const d of [0, 43_201, 1.5, -5])
      expect(apply(s, approve({ durationMinutes: d }))).toEqual({ ok: false, error: 'durationRange' });
    for (const d of [1, 43_200]) expect(apply(s, approve({ durationMinutes: d })).ok).toBe(true);
    expect(TRANSITION_ERRORS.rolesRequired).toBe('Please select atleast one role.');
    expect(TRANSITION_ERRORS.durationRange).toBe('Please select a duration between 1 - 43,200 (1 month).');
  });
  it('counts the expiry from the approval, may narrow but not widen', () => {
    const s = ok(apply(pending({ consent: 'granted' }), approve({ durationMinutes: 90 }), T0 + 5000));
    expect(s).toMatchObject({
      status: 'Approved',
      expiresAt: T0 + 5000 + 90 * 60_000,
      approvedRoles: ['Developer'],
    });
    expect(apply(pending({ consent: 'granted' }), approve({ roles: ['Owner'] }))).toEqual({
      ok: false,
      error: 'widening',
    });
  });
  it('nobody approves or rejects their own request; only approvers do', () => {
    const s = pending({ consent: 'granted' });
    expect(apply(s, approve({ actor: 'req@example.com' }))).toEqual({ ok: false, error: 'ownRequest' });
    expect(apply(s, { type: 'reject', actor: 'req@example.com', actorIsApprover: true })).toEqual({
      ok: false,
      error: 'ownRequest',
    });
    expect(apply(s, approve({ actorIsApprover: false }))).toEqual({ ok: false, error: 'notApprover' });
  });
});

describe('expiry', () => {
  it('shows Expired once ExpiresAt has passed, and no action applies', () => {
    const s = ok(apply(pending({ consent: 'granted' }), approve({ durationMinutes: 1 })));
    expect(displayStatus(s, T0 + 59_999)).toBe('Approved');
    expect(displayStatus(s, T0 + 60_000)).toBe('Expired');
    expect(availableActions(s, { email: 'boss@example.com', isApprover: true }, T0 + 60_000)).toEqual([]);
    expect(
      apply(
        s,
        { type: 'revoke', actor: 'boss@example.com', actorIsApprover: true, action: 'site' },
        T0 + 60_000,
      ),
    ).toEqual({ ok: false, error: 'expired' });
  });
});

describe('revoke', () => {
  const approved = ok(
    apply(
      pending({ consent: 'granted' }),
      approve({ roles: ['Developer', 'Analyst'], permissions: ['ViewData'] }),
    ),
  );
  const revoke = (over: Partial<Extract<ImpersonationEvent, { type: 'revoke' }>>): ImpersonationEvent => ({
    type: 'revoke',
    actor: 'boss@example.com',
    actorIsApprover: true,
    action: 'roles',
    ...over,
  });
  it('takes the whole site access, or only some roles', () => {
    expect(ok(apply(approved, revoke({ action: 'site' }))).status).toBe('Revoked');
    const partial = ok(apply(approved, revoke({ roles: ['Analyst'] })));
    expect(partial).toMatchObject({
      status: 'Approved',
      approvedRoles: ['Developer'],
      approvedPermissions: ['ViewData'],
    });
    expect(ok(apply(partial, revoke({ roles: ['Developer'] }))).status).toBe('Revoked');
  });
  it('needs something chosen', () => {
    expect(apply(approved, revoke({ roles: [], permissions: [] }))).toEqual({
      ok: false,
      error: 'nothingToRevoke',
    });
  });
});

describe('edit and delete', () => {
  it('belong to the requester while pending; edit needs roles and an assignee', () => {
    const edit = (over: Partial<Extract<ImpersonationEvent, { type: 'edit' }>> = {}): ImpersonationEvent => ({
      type: 'edit',
      actor: 'req@example.com',
      proxyRoles: ['Analyst'],
      additionalPermissions: [],
      assignees: ['boss@example.com'],
      priority: 'Low',
      description: 'x',
      ...over,
    });
    expect(ok(apply(pending(), edit())).proxyRoles).toEqual(['Analyst']);
    expect(apply(pending(), edit({ actor: 'other@example.com' }))).toEqual({
      ok: false,
      error: 'notInitiator',
    });
    expect(apply(pending(), edit({ assignees: [] }))).toEqual({ ok: false, error: 'assigneesRequired' });
    expect(TRANSITION_ERRORS.assigneesRequired).toBe('Please select atleast one assignee.');
    expect(ok(apply(pending(), { type: 'delete', actor: 'req@example.com' })).deleted).toBe(true);
    expect(apply(pending({ status: 'Rejected' }), { type: 'delete', actor: 'req@example.com' })).toEqual({
      ok: false,
      error: 'notPending',
    });
  });
});

describe('random interleavings (property)', () => {
  const actor = fc.constantFrom('req@example.com', 'boss@example.com', 'other@example.com');
  const roles = fc.subarray(['Developer', 'Analyst', 'Owner']);
  const perms = fc.subarray(['ViewData', 'EditData', 'ManageTeam']);
  const event: fc.Arbitrary<ImpersonationEvent> = fc.oneof(
    fc.record({ type: fc.constant('consent' as const), granted: fc.boolean() }),
    fc.record({
      type: fc.constant('approve' as const),
      actor,
      actorIsApprover: fc.boolean(),
      roles,
      permissions: perms,
      durationMinutes: fc.oneof(fc.integer({ min: -5, max: 50_000 }), fc.constant(30)),
    }),
    fc.record({ type: fc.constant('reject' as const), actor, actorIsApprover: fc.boolean() }),
    fc.record({
      type: fc.constant('revoke' as const),
      actor,
      actorIsApprover: fc.boolean(),
      action: fc.constantFrom('site' as const, 'roles' as const),
      roles,
      permissions: perms,
    }),
    fc.record({
      type: fc.constant('edit' as const),
      actor,
      proxyRoles: roles,
      additionalPermissions: perms,
      assignees: fc.subarray(['boss@example.com', 'chief@example.com']),
      priority: fc.constantFrom('Low' as const, 'Moderate' as const, 'High' as const, 'Critical' as const),
      description: fc.string({ maxLength: 10 }),
    }),
    fc.record({ type: fc.constant('delete' as const), actor }),
  );
  const step = fc.record({ event, advanceMs: fc.integer({ min: 0, max: 3 * 3_600_000 }) });

  it('every state reached is one the machine allows, and terminal states stay terminal', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 30 }), (steps) => {
        let s = pending();
        let now = T0;
        for (const { event: e, advanceMs } of steps) {
          now += advanceMs;
          const before = s;
          const r = transition(s, e, now);
          if (r.ok) s = r.state;
          expect(isReachableShape(s)).toBe(true);
          if (before.status === 'Rejected' || before.status === 'Revoked' || before.deleted)
            expect(s).toBe(before);
          if (displayStatus(before, now) === 'Expired') expect(s).toBe(before);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('of two competing decisions on one pending request, at most one wins', () => {
    fc.assert(
      fc.property(event, event, (a, b) => {
        const start = pending({ consent: 'granted' });
        const decisive = (e: ImpersonationEvent) =>
          e.type === 'approve' || e.type === 'reject' || e.type === 'delete';
        if (!decisive(a) || !decisive(b)) return;
        // applied in either order over the same stored row, as the server's atomic update does
        const first = transition(start, a, T0);
        if (!first.ok) return;
        const second = transition(first.state, b, T0);
        expect(second.ok).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });
});
