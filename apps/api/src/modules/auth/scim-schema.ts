/** The SCIM schema and message URNs (RFC 7643, RFC 7644) and the discovery documents (RFC 7644 §4). */
export const URN = {
  user: 'urn:ietf:params:scim:schemas:core:2.0:User',
  group: 'urn:ietf:params:scim:schemas:core:2.0:Group',
  list: 'urn:ietf:params:scim:api:messages:2.0:ListResponse',
  patch: 'urn:ietf:params:scim:api:messages:2.0:PatchOp',
  error: 'urn:ietf:params:scim:api:messages:2.0:Error',
  config: 'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig',
  resourceType: 'urn:ietf:params:scim:schemas:core:2.0:ResourceType',
  schema: 'urn:ietf:params:scim:schemas:core:2.0:Schema',
} as const;

export const PAGE_MAX = 200;
export const PATCH_OPS_MAX = 100;
export const MEMBERS_MAX = 1000;

export const serviceProviderConfig = (base: string) => ({
  schemas: [URN.config],
  documentationUri: `${base}/docs#provisioning-scim`,
  patch: { supported: true },
  bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
  filter: { supported: true, maxResults: PAGE_MAX },
  changePassword: { supported: false },
  sort: { supported: false },
  etag: { supported: false },
  authenticationSchemes: [
    {
      type: 'oauthbearertoken',
      name: 'OAuth Bearer Token',
      description: 'A SCIM token made by a SuperAdmin on the Single sign-on screen.',
      primary: true,
    },
  ],
  meta: { resourceType: 'ServiceProviderConfig', location: `${base}/scim/v2/ServiceProviderConfig` },
});

export const resourceTypes = (base: string) => [
  {
    schemas: [URN.resourceType],
    id: 'User',
    name: 'User',
    endpoint: '/Users',
    description: 'A super user (staff member) of the console',
    schema: URN.user,
    meta: { resourceType: 'ResourceType', location: `${base}/scim/v2/ResourceTypes/User` },
  },
  {
    schemas: [URN.resourceType],
    id: 'Group',
    name: 'Group',
    endpoint: '/Groups',
    description: 'A group whose displayName maps to roles (Single sign-on → group roles)',
    schema: URN.group,
    meta: { resourceType: 'ResourceType', location: `${base}/scim/v2/ResourceTypes/Group` },
  },
];

const attr = (name: string, type: string, extra: Record<string, unknown> = {}) => ({
  name,
  type,
  multiValued: false,
  required: false,
  caseExact: false,
  mutability: 'readWrite',
  returned: 'default',
  uniqueness: 'none',
  ...extra,
});

export const schemas = (base: string) => [
  {
    schemas: [URN.schema],
    id: URN.user,
    name: 'User',
    description: 'A super user',
    attributes: [
      attr('userName', 'string', { required: true, uniqueness: 'server' }),
      attr('name', 'complex', {
        subAttributes: [
          attr('formatted', 'string'),
          attr('givenName', 'string'),
          attr('familyName', 'string'),
        ],
      }),
      attr('displayName', 'string'),
      attr('active', 'boolean'),
      attr('emails', 'complex', {
        multiValued: true,
        subAttributes: [attr('value', 'string'), attr('type', 'string'), attr('primary', 'boolean')],
      }),
      attr('groups', 'complex', {
        multiValued: true,
        mutability: 'readOnly',
        subAttributes: [attr('value', 'string'), attr('display', 'string')],
      }),
    ],
    meta: { resourceType: 'Schema', location: `${base}/scim/v2/Schemas/${URN.user}` },
  },
  {
    schemas: [URN.schema],
    id: URN.group,
    name: 'Group',
    description: 'A group; its displayName is the group value of the group-to-role table',
    attributes: [
      attr('displayName', 'string', { required: true, uniqueness: 'server' }),
      attr('members', 'complex', {
        multiValued: true,
        subAttributes: [attr('value', 'string', { mutability: 'immutable' }), attr('display', 'string')],
      }),
    ],
    meta: { resourceType: 'Schema', location: `${base}/scim/v2/Schemas/${URN.group}` },
  },
];
