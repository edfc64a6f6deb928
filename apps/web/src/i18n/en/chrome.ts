/**
 * The chrome the sign-in screens show too (the toasts, the offline overlay): every language has
 * these, as it has the sign-in screens' own texts.
 */
export const signInChrome = {
  offlineTitle: 'No internet connection',
  offlineBody:
    'You are offline. Please check your internet connection; the console continues when you are back online.',
  notifications: 'Notifications',
  dismiss: 'Dismiss notification',
};

/** A translation of the chrome of the sign-in screens. */
export type SignInChromePhrases = Record<keyof typeof signInChrome, string>;

/** Texts of the authenticated chrome: navigation, user menu, breadcrumb, footer, overlays. */
export const chrome = {
  ...signInChrome,
  skipToContent: 'Skip to main content',
  mainNav: 'Main navigation',
  menu: 'Menu',
  dashboard: 'Dashboard',
  manageCustomer: 'Manage Customer',
  manageSuperuser: 'Manage Superuser',
  manageNotifications: 'Manage Notfications',
  userMenu: 'User menu for {email}',
  account: 'Account',
  changePassword: 'Change password',
  myProfile: 'My profile',
  mySessions: 'My sessions',
  apiTokens: 'API tokens',
  notificationSettings: 'Notification settings',
  theme: 'Theme',
  themeSystem: 'As the system',
  themeLight: 'Light',
  themeDark: 'Dark',
  times: 'Times',
  timesLocal: 'My time zone ({zone})',
  timesUtc: 'UTC',
  signInSecurity: 'Sign-in security',
  logout: 'Logout',
  paletteTitle: 'Go to',
  paletteLabel: 'Screen, customer, staff member or request',
  palettePlaceholder:
    'Type a screen, a customer’s name, email, UID or API key, a staff email or a request Id…',
  paletteResults: 'Places',
  paletteScreen: 'Screen',
  paletteRecent: 'Recent',
  paletteCustomer: 'Customer',
  paletteStaff: 'Staff',
  paletteRequest: 'Request',
  paletteNothing: 'Nothing matches. Customers and staff are looked up from three characters.',
  paletteHint: '↑ ↓ to move, Enter to open, Esc to close.',
  shortcutsTitle: 'Keyboard shortcuts',
  shortcutPalette: 'Go to a screen, a customer or a staff member',
  shortcutSearch: 'Move to the search field of the screen',
  shortcutHelp: 'Show these shortcuts',
  shortcutClose: 'Close a dialog or a menu',
  close: 'Close',
  signedInAs: 'Signed in as',
  breadcrumb: 'Breadcrumb',
  footerNav: 'Legal and status',
  terms: 'Terms',
  privacy: 'Privacy',
  systemStatus: 'System Status',
  copyright: '© {year} {product}',
  sectionNav: '{section} navigation',
  collapseSidebar: 'Collapse sidebar',
  expandSidebar: 'Expand sidebar',
  sessionEnded: 'You have been signed out.',
};
