import { z } from 'zod';
import { reasonWireShape } from './reason-wire.ts';
import { decimalInteger } from './validation.ts';

/** GET /admin/updateaccess?appId=&userId= (userId: the customer who owns or shares the site). */
export const updateAccessQuery = z.object({
  appId: decimalInteger(z.number().int().positive('appId must be a number.')),
  userId: z.string().uuid('userId is not a valid customer id.'),
});

export const grant = z.object({
  RequestId: z.number().int(),
  AppId: z.number().int(),
  AppName: z.string(),
  Roles: z.array(z.string()),
  /** The customer permissions in force: those of the approved roles, plus the additional ones. */
  Permissions: z.array(z.string()),
  ExpiresAt: z.string(),
  /** Break-glass access (break-glass.ts): the session shows a red banner, with its reason and case. */
  BreakGlass: z.boolean().optional(),
  /** The request's reason code and case (null on requests made before codes). */
  ...reasonWireShape,
});
export const updateAccessResponse = z.object({ Data: grant });

/** GET /account/switchapp?appid= */
export const switchAppQuery = z.object({
  appid: decimalInteger(z.number().int().positive('appid must be a number.')),
});
export const switchAppResponse = z.object({ xtoken: z.string(), xsign: z.string(), Data: grant });

/**
 * The customer permission a plan or trial change needs. PUT /admin/site/basicsettings is open to
 * ManageSettings (web apps); through an impersonation it may change the plan or the trial only
 * with this one as well.
 */
export const BILLING_PERMISSION = 'ManageBilling';

/** The customer permissions a grant gives: the approved roles' true permissions plus the additional ones. */
export function grantedPermissions(
  approvedRoles: readonly string[],
  additional: readonly string[],
  roleCatalogue: ReadonlyArray<{ name: string; permissions: Record<string, boolean> }>,
): string[] {
  const out = new Set(additional);
  for (const r of roleCatalogue) {
    if (!approvedRoles.includes(r.name)) continue;
    for (const [p, on] of Object.entries(r.permissions)) if (on) out.add(p);
  }
  return [...out].sort();
}
