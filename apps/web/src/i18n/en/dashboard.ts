import { MESSAGES } from '@sac/contract/messages';

export const dashboard = {
  heading: 'Dashboard',
  placeholder: MESSAGES.dashboardPlaceholder as string,
  welcome: 'Welcome, {name}.',
};
