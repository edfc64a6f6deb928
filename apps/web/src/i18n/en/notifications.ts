export const notifications = {
  heading: 'Manage Notifications',
};
