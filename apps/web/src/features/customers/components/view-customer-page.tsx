import { consolePaths } from '@sac/contract/console-paths';
import { useState } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router';
import { useT } from '../../../lib/i18n.tsx';
import { useCurrentUser } from '../../../lib/session.ts';
import { useCustomerProfile, useUserProfile } from '../api/customers-api.ts';
import { AccountInfoSection } from './account-info-section.tsx';
import { ActivityLogsSection } from './activity-logs-section.tsx';
import { ContactInfoSection } from './contact-info-section.tsx';
import type { SearchLocationState } from './customer-search.ts';
import { EditProfileDialog } from './edit-profile-dialog.tsx';
import { LastLoginSection } from './last-login-section.tsx';
import { ResetPasswordDialog } from './reset-password-dialog.tsx';
import { SiteInformationSection } from './site-information-section.tsx';
import { VerifyEmailDialog } from './verify-email-dialog.tsx';

/**
 * /manage-customer/view-customer?uid=: one customer. Contact, account and last-login info need
 * customers.read (the route's); the sites need sites.read and the activity activity.read, and are
 * left out for viewers without them. Each section loads and fails on its own. Edit Profile, Reset
 * Password and Verify Email (while the email is unverified) need customers.write.
 */
export default function ViewCustomerPage() {
  const t = useT('customers');
  const [params] = useSearchParams();
  const location = useLocation();
  const { permissions } = useCurrentUser();
  const uid = params.get('uid')?.trim() ?? '';
  const fromSearch = (location.state as SearchLocationState | null)?.fromSearch ?? '';

  return (
    <div className="page-stack">
      <section className="card" aria-labelledby="screen-title">
        <div className="page-header">
          <div>
            <h1 id="screen-title">{t('viewCustomer')}</h1>
            {uid ? <CustomerName uid={uid} /> : null}
            <p className="muted">{t('viewIntro')}</p>
          </div>
          <div className="page-header-actions">
            {uid && permissions.has('customers.write') ? <ProfileActions uid={uid} /> : null}
            <Link to={`${consolePaths.customerSearch()}${fromSearch}`}>{t('backToSearch')}</Link>
          </div>
        </div>
        {uid ? null : (
          <p className="form-alert" role="alert">
            {t('noCustomerSelected')}
          </p>
        )}
      </section>
      {uid ? (
        <>
          <div className="card-grid">
            <ContactInfoSection uid={uid} />
            <AccountInfoSection uid={uid} />
          </div>
          <LastLoginSection uid={uid} />
          {permissions.has('sites.read') ? <SiteInformationSection uid={uid} /> : null}
          {permissions.has('activity.read') ? <ActivityLogsSection uid={uid} /> : null}
        </>
      ) : null}
    </div>
  );
}

/** The customer's name under the heading, once the profile has loaded (shared with Contact info). */
function CustomerName({ uid }: { uid: string }) {
  const t = useT('customers');
  const profile = useCustomerProfile(uid);
  const p = profile.data;
  if (!p) return null;
  return (
    <p className="lead">
      {t('customerHeading', { name: `${p.FirstName} ${p.LastName}`.trim(), email: p.Email })}
    </p>
  );
}

type ProfileAction = 'edit' | 'password' | 'verify';

/** Edit Profile, Reset Password and (while the email is unverified) Verify Email, each a dialog. */
function ProfileActions({ uid }: { uid: string }) {
  const t = useT('customers');
  const profile = useCustomerProfile(uid);
  const account = useUserProfile(uid);
  const [open, setOpen] = useState<ProfileAction | undefined>();
  const p = profile.data;
  const close = () => setOpen(undefined);
  const unverified = p ? !p.EmailVerified : account.data?.EmailVerified === false;
  return (
    <>
      <button type="button" className="button button-small" disabled={!p} onClick={() => setOpen('edit')}>
        {t('editProfile')}
      </button>
      <button type="button" className="button button-small" disabled={!p} onClick={() => setOpen('password')}>
        {t('resetPassword')}
      </button>
      {p && unverified ? (
        <button type="button" className="button button-small" onClick={() => setOpen('verify')}>
          {t('verifyEmail')}
        </button>
      ) : null}
      {p && open === 'edit' ? <EditProfileDialog profile={p} onClose={close} /> : null}
      {p && open === 'password' ? <ResetPasswordDialog uid={uid} email={p.Email} onClose={close} /> : null}
      {p && open === 'verify' ? <VerifyEmailDialog uid={uid} email={p.Email} onClose={close} /> : null}
    </>
  );
}
