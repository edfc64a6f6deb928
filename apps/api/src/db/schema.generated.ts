// @generated from the migrated schema by `npm run db:types -w @sac/api` (src/db/schema-types.ts).
// Do not edit: change a migration and regenerate; the API tests fail while the two disagree.
import type { ColumnType, Generated, GeneratedAlways } from 'kysely';

/** What a JSON column takes: a value the driver serializes (read back as unknown, to be parsed). */
type JsonValue = string | number | boolean | object | null;


interface ActivityLogTable {
  id: Generated<number>;
  at: ColumnType<Date, Date | string, Date | string>;
  actor_uid: string | null;
  actor_email: string | null;
  action: string;
  target_type: string | null;
  target_id: string | null;
  client_address: string | null;
  details: ColumnType<unknown, JsonValue | undefined, JsonValue>;
  request_id: string | null;
  impersonation_request_id: number | null;
  customer_uid: string | null;
  app_id: number | null;
  search_text: GeneratedAlways<string | null>;
  api_token_id: number | null;
  api_token_name: string | null;
  txid: Generated<number>;
}

interface AddressLimitCountersTable {
  bucket: string;
  address: string;
  window_start: ColumnType<Date, Date | string, Date | string>;
  calls: number;
}

interface AppMetaTable {
  key: string;
  value: string;
}

interface ApplicationSecurityTable {
  app_id: number;
  settings: ColumnType<unknown, JsonValue, JsonValue>;
  modified_at: ColumnType<Date, Date | string, Date | string>;
}

interface BulkJobItemsTable {
  job_id: number;
  seq: number;
  target: number;
  label: string;
  seen_status: string;
  seen_version: number;
  planned: "change" | "refuse";
  planned_reason: string | null;
  outcome: "changed" | "refused" | "cancelled" | null;
  outcome_reason: string | null;
  done_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
  target_key: string | null;
}

interface BulkJobsTable {
  id: Generated<number>;
  action: string;
  customer_uid: string | null;
  selection: ColumnType<unknown, JsonValue, JsonValue>;
  item_count: number;
  actor_uid: string;
  actor_email: string;
  actor: ColumnType<unknown, JsonValue, JsonValue>;
  client_address: string;
  state: "planned" | "awaiting-approval" | "queued" | "running" | "done" | "cancelled" | "failed";
  approval_needed: Generated<boolean>;
  approved_by_uid: string | null;
  approved_by: string | null;
  approved_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
  undo_of: number | null;
  undone_by: number | null;
  created_at: ColumnType<Date, Date | string, Date | string>;
  started_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
  finished_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
  claimed_until: ColumnType<Date | null, Date | string | null, Date | string | null>;
  list: Generated<"customer-sites" | "impersonation-requests" | "staff-sessions" | "team-invitations" | "customers">;
  params: ColumnType<unknown, JsonValue | undefined, JsonValue>;
  failure: string | null;
  api_token_id: number | null;
}

interface CustomDomainsTable {
  domain: string;
  app_id: number;
  status: Generated<"Pending Verification" | "Verified">;
  token: string;
  created_at: ColumnType<Date, Date | string, Date | string>;
  last_checked_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
  last_check_result: string | null;
  verified_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
  failing_since: ColumnType<Date | null, Date | string | null, Date | string | null>;
}

interface CustomObjectsTable {
  app_id: number;
  id: string;
  name: string;
  size_mb: number;
  schema: string;
  created_at: ColumnType<Date, Date | string, Date | string>;
  modified_at: ColumnType<Date, Date | string, Date | string>;
}

interface CustomerAddressesTable {
  address: string;
  uid: string;
}

interface CustomerLoginsTable {
  id: Generated<number>;
  customer_uid: string;
  at: ColumnType<Date, Date | string, Date | string>;
  access_type: string;
  browser: string;
  client_address: string;
  location: Generated<string>;
}

interface CustomerNameKeysTable {
  uid: string;
  k: string;
  created_at: ColumnType<Date, Date | string, Date | string>;
  modified_at: ColumnType<Date, Date | string, Date | string>;
}

interface CustomerNoticeRecipientsTable {
  id: Generated<number>;
  notice_id: number;
  email: string;
  first_name: Generated<string>;
  outbox_id: number | null;
  queued_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
  skipped_reason: string | null;
}

interface CustomerNoticesTable {
  id: Generated<number>;
  kind: "maintenance" | "incident" | "announcement";
  subject: string;
  body_text: string;
  audience: ColumnType<unknown, JsonValue, JsonValue>;
  status: Generated<"scheduled" | "sending" | "sent" | "cancelled" | "failed">;
  send_at: ColumnType<Date, Date | string, Date | string>;
  created_at: ColumnType<Date, Date | string, Date | string>;
  created_by_uid: string | null;
  created_by_email: string;
  started_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
  queued_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
  finished_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
  cancelled_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
  cancelled_by_email: string | null;
  failure_reason: string | null;
  total: Generated<number>;
  scope: ColumnType<unknown | null, JsonValue | null, JsonValue | null>;
}

interface CustomerRolesTable {
  name: string;
  permissions: ColumnType<unknown, JsonValue | undefined, JsonValue>;
}

interface CustomersTable {
  uid: string;
  first_name: string;
  last_name: string;
  email: string;
  organization: Generated<string>;
  phone: Generated<string>;
  auth_email: Generated<string>;
  contact_email: Generated<string>;
  time_zone: Generated<string>;
  status: Generated<"Active" | "Blocked" | "Deleted">;
  role: Generated<string>;
  email_verified: Generated<boolean>;
  password_hash: string | null;
  created_at: ColumnType<Date, Date | string, Date | string>;
  modified_at: ColumnType<Date, Date | string, Date | string>;
  version: Generated<number>;
}

interface DashboardDaysTable {
  day: ColumnType<Date, Date | string, Date | string>;
  customers: Generated<number>;
  sites: Generated<number>;
}

interface DashboardSiteCountsTable {
  plan: string;
  data_center: string;
  sites: Generated<number>;
}

interface DataCentersTable {
  code: string;
  name: string;
  region: string;
}

interface DataSourcesTable {
  app_id: number;
  name: string;
  parent_name: Generated<string>;
  rules: Generated<string>;
  items: ColumnType<unknown, JsonValue, JsonValue>;
  modified_at: ColumnType<Date, Date | string, Date | string>;
}

interface EncryptionSettingsTable {
  app_id: number;
  set_name: "password" | "previous-password" | "security-answer";
  settings: ColumnType<unknown, JsonValue, JsonValue>;
  key_sealed: Uint8Array | null;
  modified_at: ColumnType<Date, Date | string, Date | string>;
}

interface FeatureSetsTable {
  name: string;
  features: string[];
}

interface FeaturesTable {
  key: string;
  name: string;
  description: Generated<string>;
}

interface GlobalServersTable {
  code: string;
  data_center: string;
  name: string;
}

interface ImpersonationConsentTokensTable {
  token_hash: Uint8Array;
  request_id: number;
  created_at: ColumnType<Date, Date | string, Date | string>;
  expires_at: ColumnType<Date, Date | string, Date | string>;
  used_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
}

interface ImpersonationLogTable {
  id: Generated<number>;
  request_id: number;
  at: ColumnType<Date, Date | string, Date | string>;
  actor: string | null;
  event: string;
  status: string;
  client_address: string | null;
  details: ColumnType<unknown, JsonValue | undefined, JsonValue>;
  app_id: number | null;
}

interface ImpersonationRequestsTable {
  id: Generated<number>;
  app_id: number;
  initiator_uid: string | null;
  initiator_email: string;
  is_customer_request: Generated<boolean>;
  consent: Generated<"pending" | "granted" | "denied">;
  consent_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
  consent_address: string | null;
  priority: "Low" | "Moderate" | "High" | "Critical";
  description: string;
  assignees: string[];
  proxy_roles: string[];
  additional_permissions: Generated<string[]>;
  duration_minutes: number;
  status: Generated<"Pending" | "Approved" | "Rejected" | "Revoked">;
  action_taken_by: string | null;
  action_taken_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
  expires_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
  approved_roles: Generated<string[]>;
  approved_permissions: Generated<string[]>;
  reason: Generated<string>;
  deleted_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
  created_at: ColumnType<Date, Date | string, Date | string>;
  modified_at: ColumnType<Date, Date | string, Date | string>;
  expiry_notified_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
  holder_uid: string | null;
  holder_email: string | null;
  version: Generated<number>;
  last_log_id: number | null;
  expiring_notified_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
  reason_code: string | null;
  case_reference: string | null;
  break_glass: Generated<boolean>;
  review_closed_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
  review_closed_by: string | null;
  review_note: string | null;
}

interface JobLeasesTable {
  name: string;
  holder: string;
  expires_at: ColumnType<Date, Date | string, Date | string>;
}

interface LoginFailuresByAddressTable {
  address: string;
  day: ColumnType<Date, Date | string, Date | string>;
  failures: Generated<number>;
}

interface MailOutboxTable {
  id: Generated<number>;
  created_at: ColumnType<Date, Date | string, Date | string>;
  to_address: string;
  subject: string;
  body_text: string;
  body_html: string | null;
  attempts: Generated<number>;
  next_attempt_at: ColumnType<Date, Date | string, Date | string>;
  claimed_until: ColumnType<Date | null, Date | string | null, Date | string | null>;
  sent_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
  failed_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
  last_error: string | null;
  headers: ColumnType<unknown | null, JsonValue | null, JsonValue | null>;
  message_key: Generated<string>;
}

interface NoticeUnsubscribesTable {
  email: string;
  unsubscribed_at: ColumnType<Date, Date | string, Date | string>;
}

interface RecordVersionsTable {
  record: string;
  version: number;
}

interface RegistrationFieldsTable {
  app_id: number;
  name: string;
  display: string;
  type: string;
  rules: Generated<string>;
  data_source: Generated<string>;
  custom: boolean;
  enabled: Generated<boolean>;
  modified_at: ColumnType<Date, Date | string, Date | string>;
}

interface RolesTable {
  name: string;
  description: Generated<string>;
  permissions: Generated<string[]>;
  built_in: Generated<boolean>;
  created_at: ColumnType<Date, Date | string | undefined, Date | string>;
  scope_data_centers: string[] | null;
  scope_plans: string[] | null;
  modified_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
  version: Generated<number>;
}

interface SchemaMigrationsTable {
  version: number;
  name: string;
  applied_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

interface ScimGroupMembersTable {
  group_id: string;
  uid: string;
}

interface ScimGroupsTable {
  id: string;
  display_name: string;
  external_id: string | null;
  created_at: ColumnType<Date, Date | string, Date | string>;
  updated_at: ColumnType<Date, Date | string, Date | string>;
  version: Generated<number>;
}

interface ScimTokensTable {
  id: Generated<number>;
  name: string;
  token_hash: Uint8Array;
  created_by_uid: string | null;
  created_at: ColumnType<Date, Date | string, Date | string>;
  last_used_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
  last_used_address: string | null;
  revoked_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
  revoked_by_uid: string | null;
}

interface SiteAccessTokensTable {
  token_hash: Uint8Array;
  app_id: number;
  created_at: ColumnType<Date, Date | string, Date | string>;
  expires_at: ColumnType<Date, Date | string, Date | string>;
}

interface SiteMembersTable {
  app_id: number;
  customer_uid: string;
  role: string;
  added_at: ColumnType<Date, Date | string, Date | string>;
}

interface SiteOwnerKeysTable {
  app_id: number;
  n: string;
  uid: string;
  k: string;
  created_at: ColumnType<Date, Date | string, Date | string>;
  modified_at: ColumnType<Date, Date | string, Date | string>;
}

interface SitesTable {
  app_id: Generated<number>;
  app_name: string;
  api_key: string;
  secret_hash: Uint8Array;
  owner_uid: string;
  plan: Generated<"Free" | "Developer" | "Developer Premium">;
  plan_status: Generated<"Trial" | "Subscribed">;
  trial_ends_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
  billing: Generated<string>;
  data_center: string | null;
  global_server: string | null;
  db_name: Generated<string>;
  custom_db_conn: Uint8Array | null;
  features: Generated<string[]>;
  status: Generated<"active" | "inactive">;
  production_url: Generated<string>;
  staging_url: Generated<string>;
  created_at: ColumnType<Date, Date | string, Date | string>;
  modified_at: ColumnType<Date, Date | string, Date | string>;
  version: Generated<number>;
  previous_secret_hash: Uint8Array | null;
  previous_secret_until: ColumnType<Date | null, Date | string | null, Date | string | null>;
}

interface SsoSettingsTable {
  id: number;
  enabled: Generated<boolean>;
  display_name: Generated<string>;
  issuer: Generated<string>;
  client_id: Generated<string>;
  client_secret_sealed: Uint8Array | null;
  groups_claim: Generated<string>;
  create_on_first: Generated<boolean>;
  second_factor_values: Generated<string>;
  password_sign_in: Generated<boolean>;
  break_glass_uid: string | null;
  updated_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
}

interface SsoSignInStatesTable {
  state_hash: Uint8Array;
  binder_hash: Uint8Array;
  nonce: string;
  code_verifier: string;
  created_at: ColumnType<Date, Date | string, Date | string>;
  expires_at: ColumnType<Date, Date | string, Date | string>;
}

interface StaffTable {
  uid: string;
  email: string;
  full_name: Generated<string>;
  password_hash: string;
  created_at: ColumnType<Date, Date | string, Date | string>;
  last_login_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
  password_changed_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
  failed_logins: Generated<number>;
  lockouts: Generated<number>;
  locked_until: ColumnType<Date | null, Date | string | null, Date | string | null>;
  invitation_pending: Generated<boolean>;
  factor_failures: Generated<number>;
  sign_ins_in_flight: Generated<number>;
  in_flight_since: ColumnType<Date | null, Date | string | null, Date | string | null>;
  kind: Generated<"person" | "service">;
  deactivated_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
  external_id: string | null;
  scim_managed: Generated<boolean>;
  roles_confirmed_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
  roles_confirmed_by: string | null;
}

interface StaffAddressAllowlistTable {
  id: Generated<number>;
  entries: Generated<string[]>;
  updated_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
  updated_by: string | null;
}

interface StaffApiTokensTable {
  id: Generated<number>;
  uid: string;
  name: string;
  token_hash: Uint8Array;
  permissions: string[];
  allowed_addresses: Generated<string[]>;
  created_by_uid: string | null;
  created_at: ColumnType<Date, Date | string, Date | string>;
  expires_at: ColumnType<Date, Date | string, Date | string>;
  last_used_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
  last_used_address: string | null;
  revoked_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
  revoked_by_uid: string | null;
}

interface StaffGroupRolesTable {
  group_value: string;
  role: string;
}

interface StaffNotificationPreferencesTable {
  uid: string;
  kind: "assigned" | "consent" | "decided" | "revoked" | "expiring" | "sessions-ended" | "webhook-paused" | "break-glass" | "break-glass-reviewed" | "bulk-approval";
  email: boolean;
}

interface StaffNotificationsTable {
  id: Generated<number>;
  recipient_uid: string;
  kind: "assigned" | "consent" | "decided" | "revoked" | "expiring" | "sessions-ended" | "webhook-paused" | "break-glass" | "break-glass-reviewed" | "bulk-approval";
  request_id: number | null;
  app_name: string | null;
  actor_email: string | null;
  details: ColumnType<unknown, JsonValue | undefined, JsonValue>;
  created_at: ColumnType<Date, Date | string, Date | string>;
  read_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
}

interface StaffPasskeysTable {
  id: Generated<number>;
  uid: string;
  credential_id: string;
  public_key: Uint8Array;
  sign_count: Generated<number>;
  transports: Generated<string[]>;
  name: string;
  created_at: ColumnType<Date, Date | string, Date | string>;
  last_used_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
}

interface StaffRecentCustomersTable {
  staff_uid: string;
  customer_uid: string;
  viewed_at: ColumnType<Date, Date | string, Date | string>;
}

interface StaffRecoveryCodesTable {
  uid: string;
  code_hash: Uint8Array;
  created_at: ColumnType<Date, Date | string, Date | string>;
  used_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
}

interface StaffRefusalsTable {
  actor_uid: string;
  endpoint: string;
  missing: string;
  actor_email: string;
  client_address: string | null;
  status: number;
  error_code: number;
  window_start: ColumnType<Date, Date | string, Date | string>;
  last_at: ColumnType<Date, Date | string, Date | string>;
  repeats: Generated<number>;
  closed_repeats: Generated<number>;
  closed_start: ColumnType<Date | null, Date | string | null, Date | string | null>;
  closed_last: ColumnType<Date | null, Date | string | null, Date | string | null>;
}

interface StaffRolesTable {
  uid: string;
  role: string;
  granted_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
}

interface StaffSessionsTable {
  id: Generated<number>;
  uid: string;
  token_hash: Uint8Array;
  sign_hash: Uint8Array;
  created_at: ColumnType<Date, Date | string, Date | string>;
  last_used_at: ColumnType<Date, Date | string, Date | string>;
  revoked_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
  revoked_reason: string | null;
  client_address: string | null;
  user_agent: string | null;
  impersonation_request_id: number | null;
  verified_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
}

interface StaffSignInTicketsTable {
  ticket_hash: Uint8Array;
  uid: string;
  kind: "verify" | "enrol";
  password_hash: string;
  created_at: ColumnType<Date, Date | string, Date | string>;
  expires_at: ColumnType<Date, Date | string, Date | string>;
  used_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
}

interface StaffTokensTable {
  token_hash: Uint8Array;
  uid: string;
  purpose: "reset" | "invite";
  created_at: ColumnType<Date, Date | string, Date | string>;
  expires_at: ColumnType<Date, Date | string, Date | string>;
  used_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
}

interface StaffTotpTable {
  uid: string;
  secret_sealed: Uint8Array;
  created_at: ColumnType<Date, Date | string, Date | string>;
  confirmed_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
  last_used_step: Generated<number>;
  last_used_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
}

interface StaffWebauthnChallengesTable {
  uid: string;
  ceremony: "register" | "authenticate";
  challenge: string;
  expires_at: ColumnType<Date, Date | string, Date | string>;
}

interface TrailStreamCursorsTable {
  sink: string;
  txid: Generated<number>;
  last_id: Generated<number>;
  sent_rows: Generated<number>;
  last_sent_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
  last_error: string | null;
  last_error_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

interface WebhookAttemptsTable {
  delivery_id: number;
  at: ColumnType<Date, Date | string, Date | string>;
  code: number | null;
  error: string | null;
  duration_ms: number;
}

interface WebhookDeliveriesTable {
  id: Generated<number>;
  subscription_id: number;
  event_id: string;
  event_type: string;
  payload: string;
  occurred_at: ColumnType<Date, Date | string, Date | string>;
  created_at: ColumnType<Date, Date | string, Date | string>;
  state: Generated<"pending" | "delivered" | "failed">;
  attempt_count: Generated<number>;
  next_attempt_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
  delivered_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
  redelivery_of: number | null;
}

interface WebhookFanoutTable {
  only_row: Generated<boolean>;
  txid: number;
  last_id: number;
}

interface WebhookSubscriptionsTable {
  id: Generated<number>;
  url: string;
  description: Generated<string>;
  event_types: string[];
  secret: Uint8Array;
  previous_secret: Uint8Array | null;
  previous_secret_until: ColumnType<Date | null, Date | string | null, Date | string | null>;
  secret_rotated_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
  state: Generated<"active" | "paused">;
  paused_reason: "manual" | "failing" | null;
  paused_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
  paused_by: string | null;
  failing_since: ColumnType<Date | null, Date | string | null, Date | string | null>;
  last_delivered_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
  created_by_uid: string | null;
  created_by: string | null;
  created_at: ColumnType<Date, Date | string, Date | string>;
}

/** Every table of the schema, by name: the database type of the statement builder. */
export interface DB {
  activity_log: ActivityLogTable;
  address_limit_counters: AddressLimitCountersTable;
  app_meta: AppMetaTable;
  application_security: ApplicationSecurityTable;
  bulk_job_items: BulkJobItemsTable;
  bulk_jobs: BulkJobsTable;
  custom_domains: CustomDomainsTable;
  custom_objects: CustomObjectsTable;
  customer_addresses: CustomerAddressesTable;
  customer_logins: CustomerLoginsTable;
  customer_name_keys: CustomerNameKeysTable;
  customer_notice_recipients: CustomerNoticeRecipientsTable;
  customer_notices: CustomerNoticesTable;
  customer_roles: CustomerRolesTable;
  customers: CustomersTable;
  dashboard_days: DashboardDaysTable;
  dashboard_site_counts: DashboardSiteCountsTable;
  data_centers: DataCentersTable;
  data_sources: DataSourcesTable;
  encryption_settings: EncryptionSettingsTable;
  feature_sets: FeatureSetsTable;
  features: FeaturesTable;
  global_servers: GlobalServersTable;
  impersonation_consent_tokens: ImpersonationConsentTokensTable;
  impersonation_log: ImpersonationLogTable;
  impersonation_requests: ImpersonationRequestsTable;
  job_leases: JobLeasesTable;
  login_failures_by_address: LoginFailuresByAddressTable;
  mail_outbox: MailOutboxTable;
  notice_unsubscribes: NoticeUnsubscribesTable;
  record_versions: RecordVersionsTable;
  registration_fields: RegistrationFieldsTable;
  roles: RolesTable;
  schema_migrations: SchemaMigrationsTable;
  scim_group_members: ScimGroupMembersTable;
  scim_groups: ScimGroupsTable;
  scim_tokens: ScimTokensTable;
  site_access_tokens: SiteAccessTokensTable;
  site_members: SiteMembersTable;
  site_owner_keys: SiteOwnerKeysTable;
  sites: SitesTable;
  sso_settings: SsoSettingsTable;
  sso_sign_in_states: SsoSignInStatesTable;
  staff: StaffTable;
  staff_address_allowlist: StaffAddressAllowlistTable;
  staff_api_tokens: StaffApiTokensTable;
  staff_group_roles: StaffGroupRolesTable;
  staff_notification_preferences: StaffNotificationPreferencesTable;
  staff_notifications: StaffNotificationsTable;
  staff_passkeys: StaffPasskeysTable;
  staff_recent_customers: StaffRecentCustomersTable;
  staff_recovery_codes: StaffRecoveryCodesTable;
  staff_refusals: StaffRefusalsTable;
  staff_roles: StaffRolesTable;
  staff_sessions: StaffSessionsTable;
  staff_sign_in_tickets: StaffSignInTicketsTable;
  staff_tokens: StaffTokensTable;
  staff_totp: StaffTotpTable;
  staff_webauthn_challenges: StaffWebauthnChallengesTable;
  trail_stream_cursors: TrailStreamCursorsTable;
  webhook_attempts: WebhookAttemptsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_fanout: WebhookFanoutTable;
  webhook_subscriptions: WebhookSubscriptionsTable;
}
