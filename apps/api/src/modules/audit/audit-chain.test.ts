import { AUDIT_EVENT_FIELDS, type AuditEvent } from '@sac/contract/audit';
import { describe, expect, it } from 'vitest';
import { canonicalEvent } from './audit-chain.ts';

/** The definition canonicalEvent writes without building: an object of the fields in order, as JSON. */
const byObject = (e: AuditEvent) =>
  JSON.stringify(Object.fromEntries(AUDIT_EVENT_FIELDS.map((f) => [f, e[f]])));

describe('canonicalEvent', () => {
  it('is the JSON of the fields in their order, member for member, whatever the values', () => {
    const base: AuditEvent = {
      Id: '42',
      At: '2026-01-02T03:04:05.678Z',
      ActorUid: null,
      ActorEmail: 'Zoë "quoted" <x@example.com>',
      Action: 'team.roles',
      TargetType: 'customer',
      TargetId: 'line\nbreak\u2028',
      CustomerUid: null,
      AppId: 1042,
      ClientAddress: '::1',
      RequestId: null,
      ImpersonationRequestId: 7,
      Details: { nested: { list: [1, 'two', null, { '\u0000': true }] }, n: -0.5, emoji: '🙂' },
    };
    const cases: AuditEvent[] = [
      base,
      { ...base, Details: {}, AppId: null, ImpersonationRequestId: null },
      // a field JSON cannot write is left out, as JSON.stringify leaves it out
      { ...base, RequestId: undefined as unknown as null },
      { ...base, Id: undefined as unknown as string },
    ];
    for (const e of cases) expect(canonicalEvent(e)).toBe(byObject(e));
  });
});
