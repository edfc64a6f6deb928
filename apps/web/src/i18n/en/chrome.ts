/** Texts of the authenticated chrome: navigation, user menu, breadcrumb, footer, overlays. */
export const chrome = {
  skipToContent: 'Skip to main content',
  mainNav: 'Main navigation',
  dashboard: 'Dashboard',
  manageCustomer: 'Manage Customer',
  manageSuperuser: 'Manage Superuser',
  manageNotifications: 'Manage Notfications',
  userMenu: 'User menu for {email}',
  account: 'Account',
  changePassword: 'Change password',
  logout: 'Logout',
  signedInAs: 'Signed in as',
  breadcrumb: 'Breadcrumb',
  footerNav: 'Legal and status',
  terms: 'Terms',
  privacy: 'Privacy',
  systemStatus: 'System Status',
  copyright: '© {year} {product}',
  offlineTitle: 'No internet connection',
  offlineBody:
    'You are offline. Please check your internet connection; the console continues when you are back online.',
  notifications: 'Notifications',
  dismiss: 'Dismiss notification',
  sectionNav: '{section} navigation',
  collapseSidebar: 'Collapse sidebar',
  expandSidebar: 'Expand sidebar',
  sessionEnded: 'You have been signed out.',
};

export type ChromePhrases = typeof chrome;
