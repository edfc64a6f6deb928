export const customers = {
  section: 'Manage Customer',
  searchCustomer: 'Search Customer',
  createCustomer: 'Create Customer',
  editSite: 'Edit Site',
  addSite: 'Add Site',
  viewCustomer: 'View Customer',
};
