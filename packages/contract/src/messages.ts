/** The spec's exact user-facing texts (sections 2, 5, 6 and 8). Never reword one of these. */
export const MESSAGES = {
  // Validation (section 5)
  emailRequired: 'Email is required.',
  emailInvalid: 'Email is invalid.',
  emailInvalidLogin: 'Please enter valid email.',
  phoneNotNumber: 'Phone Number must be a number.',
  phoneLength: 'Phone Number must be 10 characters.',
  passwordsDoNotMatch: 'Passwords do not match.',
  passwordRule:
    'Password field must be minimum 6 characters,  at least 1 lowercase letter, at least 1 uppercase letter, 1 symbol and 1 digit.',
  resetUrlMissingToken: 'Please enter correct Reset Password Url',
  approveRolesRequired: 'Please select atleast one role.',
  approveDurationRange: 'Please select a duration between 1 - 43,200 (1 month).',
  editAssigneesRequired: 'Please select atleast one assignee.',
  databaseNameRequired: 'Database name is required.',
  connectionStringRequired: 'Database connection string is required.',
  customObjectSizeNumeric: 'Please enter valid custom object size (in numbers).',
  customObjectSizeRange: 'Please enter custom object size between 1 and 200',
  customObjectIdChars: 'Id can only contain alphanumeric characters, underscores and dashes',
  customObjectSchemaInvalid: 'Invalid JSON input.',
  customObjectSchemaEmpty: 'Custom Object Schema is empty.',
  domainNameRequired: 'Domain name is required.',
  customDomainEmpty: 'Custom Domain cannot be an empty value',
  optionalSuffix: '(Optional)',

  // Screens (section 2)
  signInHeading: 'Sign in to Superadmin',
  dashboardPlaceholder: 'Super admin main page',
  initializationFailed: 'App initialization failed. Please check your network.',
  noImpersonationAccess: 'You do not have the Access for Impersonation',
  tableFetchError: 'Error while fetching data from the server.',
  tableEmpty: 'No data available to display.',
  customerNotGrantedImpersonation: 'The customer has not granted permission to impersonate their site.',

  // Error catalogue (section 8)
  searchNotFound: 'Not Found, Please try again with some other information!',
  invalidCredentials: 'Please use valid credentials.',
  genericError: 'An error has occurred. Please try again.',
  customerExists: 'User already exists, Use search function to handle site creation',
  superUserExists: 'Super User is already exist. please create with different email.',
  featureSetUnavailable: 'Unable to get the list of featureset at the moment.',
  basicSettingsFailed: 'Unable to add basic settings.',
  featuresFailed: 'Unable to add features.',
  trialAppFailed: 'Unable to set trial app.',
  dataCentersFailed: 'Error retrieving data centers',
  customerProfileUpdateFailed: 'Error updating customer profile.',
  superAdminDataMissingOnCreate: 'Unable to load Superadmin user data. Please try again.',
  superAdminDataLoadFailed: 'Unable to load Superadmin user data',
  superUserCreated: 'Super User Created Successfully. Please check you email to reset password.',
  superUserCreateFailed: 'Unable to create Super User',
  customerRolesFailed: 'Unable to fetch customer roles. Please try again.',
  superAdminListFailed: 'Unable to fetch list of superadmins. Please try again.',
} as const;

/** '{field} is required' of the sign-in, forgot-password and reset forms. */
export const fieldRequired = (field: string): string => `${field} is required`;
/** '{Field} field is required.' of the create-superuser form. */
export const fieldFieldRequired = (field: string): string => `${field} field is required.`;
