import { describe, expect, it } from 'vitest';
import { fieldFieldRequired, fieldRequired, MESSAGES } from './messages.ts';

/** Literals copied verbatim from docs spec sections 2, 5, 6 and 8 (console-spec.md). */
const SPEC_TEXTS: ReadonlyArray<readonly [keyof typeof MESSAGES, string]> = [
  // Section 2: screens
  ['signInHeading', 'Sign in to Superadmin'],
  ['dashboardPlaceholder', 'Super admin main page'],
  ['initializationFailed', 'App initialization failed. Please check your network.'],
  ['noImpersonationAccess', 'You do not have the Access for Impersonation'],
  ['tableFetchError', 'Error while fetching data from the server.'],
  ['tableEmpty', 'No data available to display.'],
  // Section 5: validation
  ['emailRequired', 'Email is required.'],
  ['emailInvalid', 'Email is invalid.'],
  ['emailInvalidLogin', 'Please enter valid email.'],
  ['phoneNotNumber', 'Phone Number must be a number.'],
  ['phoneLength', 'Phone Number must be 10 characters.'],
  ['passwordsDoNotMatch', 'Passwords do not match.'],
  [
    'passwordRule',
    'Password field must be minimum 6 characters,  at least 1 lowercase letter, at least 1 uppercase letter, 1 symbol and 1 digit.',
  ],
  ['resetUrlMissingToken', 'Please enter correct Reset Password Url'],
  ['approveRolesRequired', 'Please select atleast one role.'],
  ['approveDurationRange', 'Please select a duration between 1 - 43,200 (1 month).'],
  ['editAssigneesRequired', 'Please select atleast one assignee.'],
  ['databaseNameRequired', 'Database name is required.'],
  ['connectionStringRequired', 'Database connection string is required.'],
  ['customObjectSizeNumeric', 'Please enter valid custom object size (in numbers).'],
  ['customObjectSizeRange', 'Please enter custom object size between 1 and 200'],
  ['customObjectIdChars', 'Id can only contain alphanumeric characters, underscores and dashes'],
  ['customObjectSchemaInvalid', 'Invalid JSON input.'],
  ['customObjectSchemaEmpty', 'Custom Object Schema is empty.'],
  ['domainNameRequired', 'Domain name is required.'],
  ['customDomainEmpty', 'Custom Domain cannot be an empty value'],
  ['optionalSuffix', '(Optional)'],
  // Section 6: roles and permissions
  ['customerNotGrantedImpersonation', 'The customer has not granted permission to impersonate their site.'],
  // Section 8: error catalogue
  ['searchNotFound', 'Not Found, Please try again with some other information!'],
  ['invalidCredentials', 'Please use valid credentials.'],
  ['genericError', 'An error has occurred. Please try again.'],
  ['customerExists', 'User already exists, Use search function to handle site creation'],
  ['superUserExists', 'Super User is already exist. please create with different email.'],
  ['featureSetUnavailable', 'Unable to get the list of featureset at the moment.'],
  ['basicSettingsFailed', 'Unable to add basic settings.'],
  ['featuresFailed', 'Unable to add features.'],
  ['trialAppFailed', 'Unable to set trial app.'],
  ['dataCentersFailed', 'Error retrieving data centers'],
  ['customerProfileUpdateFailed', 'Error updating customer profile.'],
  ['superAdminDataMissingOnCreate', 'Unable to load Superadmin user data. Please try again.'],
  ['superAdminDataLoadFailed', 'Unable to load Superadmin user data'],
  ['superUserCreated', 'Super User Created Successfully. Please check you email to reset password.'],
  ['superUserCreateFailed', 'Unable to create Super User'],
  ['customerRolesFailed', 'Unable to fetch customer roles. Please try again.'],
  ['superAdminListFailed', 'Unable to fetch list of superadmins. Please try again.'],
];

describe('MESSAGES', () => {
  it.each(SPEC_TEXTS)('%s is the spec text verbatim', (key, text) => {
    expect(MESSAGES[key]).toBe(text);
  });

  it('holds every spec text (the table above covers every key)', () => {
    const covered = new Set(SPEC_TEXTS.map(([key]) => key));
    expect(Object.keys(MESSAGES).filter((k) => !covered.has(k as keyof typeof MESSAGES))).toEqual([]);
  });

  it('has no duplicate texts under different keys', () => {
    const values = Object.values(MESSAGES);
    expect(new Set(values).size).toBe(values.length);
  });

  it('keeps the double space after the comma in the password rule', () => {
    expect(MESSAGES.passwordRule).toContain('6 characters,  at least 1 lowercase');
    expect(MESSAGES.passwordRule.match(/, {2}/g)).toHaveLength(1);
  });

  it('has no leading or trailing whitespace in any text', () => {
    for (const text of Object.values(MESSAGES)) expect(text).toBe(text.trim());
  });
});

describe('fieldRequired', () => {
  it("builds '{field} is required' without a full stop", () => {
    expect(fieldRequired('Email')).toBe('Email is required');
    expect(fieldRequired('Password')).toBe('Password is required');
    expect(fieldRequired('Confirm Password')).toBe('Confirm Password is required');
  });
});

describe('fieldFieldRequired', () => {
  it("builds '{Field} field is required.' with a full stop", () => {
    expect(fieldFieldRequired('Roles')).toBe('Roles field is required.');
    expect(fieldFieldRequired('Email')).toBe('Email field is required.');
  });
});
