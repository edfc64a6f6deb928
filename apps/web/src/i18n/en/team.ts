export const team = {
  section: 'Manage Superuser',
  manageSuperuser: 'Manage Superuser',
  createSuperuser: 'Create Superuser',
};
