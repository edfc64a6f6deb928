import type { ImpersonationRequest } from '@sac/contract/impersonation-api';
import type { Viewer } from '../../../testing/api-stub.tsx';

/** Fixtures of the impersonation screens' tests: viewers, customer roles, the team, requests. */

export const superAdmin: Viewer = {
  Uid: 'u-super',
  Email: 'superadmin@example.com',
  Role: ['SuperAdmin'],
  Permissions: ['team.read', 'impersonation.request', 'impersonation.approve', 'impersonation.logs.read'],
};
export const admin: Viewer = {
  Uid: 'u-admin',
  Email: 'admin@example.com',
  Role: ['Admin'],
  Permissions: ['team.read', 'sites.read', 'impersonation.request', 'impersonation.logs.read'],
};
export const support: Viewer = {
  Uid: 'u-support',
  Email: 'support@example.com',
  Role: ['Support'],
  Permissions: ['sites.read', 'impersonation.request', 'impersonation.logs.read'],
};

export const CUSTOMER_ROLES = [
  { Name: 'Administrator', Permissions: { EditData: true, ViewData: true, ManageSite: true } },
  { Name: 'Analyst', Permissions: { ViewData: true } },
  { Name: 'Developer', Permissions: { EditData: true, ViewData: true, ManageSettings: true } },
  { Name: 'Support', Permissions: { EditData: true, ViewData: true } },
];

/** GET /admin/impersonation/approvers: the SuperAdmins, by email, with their names. */
/** GET /admin/impersonation/reasons, as the console reads it (reasonSettingsOf). */
export const REASONS = {
  ReasonCodes: [
    { Code: 'support-ticket', Label: 'Support ticket' },
    { Code: 'production-incident', Label: 'Production incident' },
  ],
  CaseRequired: true,
  CaseUrlPattern: 'https://tickets.example.com/browse/{case}',
};

export const APPROVERS = [
  { Email: 'superadmin@example.com', Name: 'Super Admin' },
  { Email: 'boss@example.com', Name: 'Big Boss' },
];

type Extra = {
  Id?: number;
  AppId?: number;
  AppName?: string;
  Initiator?: string;
  Impersonation?: boolean;
  Request?: Partial<ImpersonationRequest['Request']>;
  Action?: Partial<ImpersonationRequest['Action']>;
  Version?: number;
};

export const request = (id: number, extra: Extra = {}): ImpersonationRequest => {
  const impersonation = extra.Impersonation ?? true;
  return {
    Id: id,
    AppId: extra.AppId ?? 11,
    AppName: extra.AppName ?? 'analytical-engine',
    Initiator: extra.Initiator ?? 'admin@example.com',
    Impersonation: impersonation,
    Consent: impersonation ? 'granted' : 'pending',
    IsCustomerRequest: false,
    Request: {
      Priority: 'High',
      Description: 'Customer cannot save settings.',
      Assignees: ['superadmin@example.com'],
      ProxyRoles: ['Administrator', 'Analyst'],
      AdditionalPermissions: ['ManageSite'],
      Duration: 90,
      ReasonCode: 'support-ticket',
      ReasonLabel: 'Support ticket',
      CaseReference: 'SUP-42',
      CaseUrl: 'https://tickets.example.com/browse/SUP-42',
      RequestCreatedDate: '2025-01-02T03:04:05.000Z',
      RequestModifiedDate: '2025-01-02T03:04:05.000Z',
      ...extra.Request,
    },
    Action: {
      Status: 'Pending',
      ActionTakenBy: null,
      ActionTakenAt: null,
      ExpiresAt: null,
      ApprovedProxyRoles: [],
      ApprovedAdditionalPermissions: [],
      Reason: '',
      ...extra.Action,
    },
    Version: extra.Version ?? 1,
  };
};
