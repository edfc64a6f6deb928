import { DASHBOARD_TITLE } from '@sac/contract/constants';

export const common = {
  productName: DASHBOARD_TITLE as string,
  notAvailable: 'This screen is not available yet.',
  notAvailableDetail: 'It will be added in a later release of the console.',
  loading: 'Loading…',
  forbidden: 'You do not have permission to open this screen.',
  languageNames: 'English|Español|Français|සිංහල|Türkçe',
};

export type CommonPhrases = typeof common;
