import { z } from 'zod';
import {
  changePasswordBody,
  forgotPasswordBody,
  loginBody,
  loginResponse,
  okResponse,
  resetPasswordBody,
} from './auth.ts';
import { errorEnvelopeSchema } from './errors.ts';
import type { Permission } from './permissions.ts';
import {
  createSuperUserBody,
  deleteSuperUserBody,
  deleteSuperUserResponse,
  profileQuery,
  superUserProfileResponse,
  superUserResponse,
  teamListResponse,
  teamRolesResponse,
  updateRolesBody,
} from './team.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * Who may call an endpoint: anyone ('public'), anyone signed in ('session'), or a holder of one
 * permission of the matrix.
 */
export type Access = 'public' | 'session' | Permission;

export interface EndpointDef {
  /** Stable name, used by the console client and the authorization-matrix test. */
  readonly id: string;
  readonly method: HttpMethod;
  readonly path: string;
  readonly summary: string;
  readonly tag: string;
  readonly access: Access;
  readonly query?: z.ZodObject;
  /** The JSON body; DELETE calls carry theirs as data too, as spec section 7 says. */
  readonly body?: z.ZodType;
  /** The answer per HTTP status; every error status carries the error envelope. */
  readonly responses: Readonly<Record<number, z.ZodType>>;
}

const errors = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((s) => [s, errorEnvelopeSchema])) as Record<number, z.ZodType>;

export const sessionResponse = z.object({
  Email: z.string(),
  Name: z.string(),
  Role: z.array(z.string()),
  Permissions: z.array(z.string()),
  Uid: z.string(),
});

/** The endpoint table. The API registers its routes from it; OpenAPI and the client derive from it. */
export const ENDPOINTS = {
  login: {
    id: 'login',
    method: 'POST',
    path: '/admin/login',
    summary: 'Sign in with email and password; answers the session pair xtoken and xsign.',
    tag: 'Authentication',
    access: 'public',
    body: loginBody,
    responses: { 200: loginResponse, ...errors(400, 401, 429) },
  },
  logout: {
    id: 'logout',
    method: 'POST',
    path: '/admin/logout',
    summary: 'End the calling session on the server.',
    tag: 'Authentication',
    access: 'session',
    responses: { 200: okResponse, ...errors(401) },
  },
  session: {
    id: 'session',
    method: 'GET',
    path: '/admin/session',
    summary: 'The signed-in staff member, their roles and the permissions those grant.',
    tag: 'Authentication',
    access: 'session',
    responses: { 200: sessionResponse, ...errors(401) },
  },
  forgotPassword: {
    id: 'forgotPassword',
    method: 'POST',
    path: '/admin/forgotpassword',
    summary:
      'Mail a single-use reset link built on the console page `url` (an allowed console origin). Answers the same whether or not the email is known.',
    tag: 'Authentication',
    access: 'public',
    body: forgotPasswordBody,
    responses: { 200: okResponse, ...errors(400, 429) },
  },
  resetPassword: {
    id: 'resetPassword',
    method: 'PUT',
    path: '/admin/resetpassword',
    summary: 'Set a new password with the token of a reset link; ends every session of that user.',
    tag: 'Authentication',
    access: 'public',
    body: resetPasswordBody,
    responses: { 200: okResponse, ...errors(400) },
  },
  changePassword: {
    id: 'changePassword',
    method: 'PUT',
    path: '/admin/changepassword',
    summary: "Change the signed-in user's password; ends their other sessions.",
    tag: 'Authentication',
    access: 'session',
    body: changePasswordBody,
    responses: { 200: okResponse, ...errors(400, 401) },
  },
  teamList: {
    id: 'teamList',
    method: 'GET',
    path: '/admin/team',
    summary: 'Every super user: FullName, Email[0].Value, Roles, CreatedDate, LastLoginDate, Uid.',
    tag: 'Team',
    access: 'team.read',
    responses: { 200: teamListResponse, ...errors(401, 403) },
  },
  teamCreate: {
    id: 'teamCreate',
    method: 'POST',
    path: '/admin/team',
    summary:
      'Create a super user with the given roles (never SuperAdmin). The password is generated and never shown; the user is mailed a single-use invitation link (24 hours) to set their own.',
    tag: 'Team',
    access: 'team.write',
    body: createSuperUserBody,
    responses: { 200: superUserResponse, ...errors(400, 401, 403, 409) },
  },
  teamUpdateRoles: {
    id: 'teamUpdateRoles',
    method: 'PUT',
    path: '/admin/team/roles',
    summary:
      "Set a super user's roles to `role`, unassigning `unAssignRoles` (all roles not chosen). Ends the user's sessions. Nobody changes their own roles; the last SuperAdmin keeps the role.",
    tag: 'Team',
    access: 'team.write',
    body: updateRolesBody,
    responses: { 200: superUserResponse, ...errors(400, 401, 403, 404, 409) },
  },
  teamDelete: {
    id: 'teamDelete',
    method: 'DELETE',
    path: '/admin/team',
    summary:
      'Delete a super user and end their sessions. Nobody deletes themselves; the last SuperAdmin stays.',
    tag: 'Team',
    access: 'team.write',
    body: deleteSuperUserBody,
    responses: { 200: deleteSuperUserResponse, ...errors(400, 401, 403, 404, 409) },
  },
  teamRoles: {
    id: 'teamRoles',
    method: 'GET',
    path: '/admin/team/roles',
    summary: 'The staff roles, each with its description and permissions.',
    tag: 'Team',
    access: 'session',
    responses: { 200: teamRolesResponse, ...errors(401) },
  },
  teamProfile: {
    id: 'teamProfile',
    method: 'GET',
    path: '/admin/team/profile',
    summary:
      "A super user's profile, when the profile-access rule of spec section 6 lets the caller open it (anyone opens their own).",
    tag: 'Team',
    access: 'session',
    query: profileQuery,
    responses: { 200: superUserProfileResponse, ...errors(400, 401, 403, 404) },
  },
} as const satisfies Record<string, EndpointDef>;

export type EndpointId = keyof typeof ENDPOINTS;
export const ENDPOINT_LIST: readonly EndpointDef[] = Object.values(ENDPOINTS);

type Def<I extends EndpointId> = (typeof ENDPOINTS)[I];
export type BodyOf<I extends EndpointId> =
  Def<I> extends { body: z.ZodType } ? z.input<Def<I>['body']> : undefined;
export type QueryOf<I extends EndpointId> =
  Def<I> extends { query: z.ZodType } ? z.input<Def<I>['query']> : undefined;
export type ResponseOf<I extends EndpointId> = Def<I>['responses'] extends { 200: z.ZodType }
  ? z.output<Def<I>['responses'][200]>
  : never;
