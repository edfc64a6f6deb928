import { DASHBOARD_TITLE } from '@sac/contract/constants';
import { MESSAGES } from '@sac/contract/messages';

export const common = {
  productName: DASHBOARD_TITLE as string,
  notAvailable: 'This screen is not available yet.',
  notAvailableDetail: 'It will be added in a later release of the console.',
  loading: 'Loading…',
  forbidden: 'You do not have permission to open this screen.',
  errorTitle: 'Something went wrong',
  errorBody: 'An error has occurred. Please try again.',
  chunkErrorBody: 'Part of the console could not be loaded. Please check your network and reload.',
  reload: 'Reload',
  retry: 'Retry',
  languageNames: 'English|Español|Français|සිංහල|Türkçe',
  tableFetchError: MESSAGES.tableFetchError as string,
  tableEmpty: MESSAGES.tableEmpty as string,
  pagination: 'Pagination',
  previousPage: 'Previous',
  nextPage: 'Next',
  pageN: 'Page {page}',
  ellipsis: '…',
  pageSummary: 'Showing {from}–{to} of {total}',
  close: 'Close',
};

export type CommonPhrases = typeof common;
