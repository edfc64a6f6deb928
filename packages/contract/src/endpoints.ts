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
