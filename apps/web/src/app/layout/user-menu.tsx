import { consolePaths } from '@sac/contract/console-paths';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import dropdownMenuStyles from '../../components/dropdown-menu.module.css';
import { Dropdown } from '../../components/dropdown-menu.tsx';
import { viewerTimeZone } from '../../lib/date-format.ts';
import { useT } from '../../lib/i18n.tsx';
import { useCurrentUser } from '../../lib/session.ts';
import { chooseTheme, THEMES, useThemeChoice } from '../../lib/theme.ts';
import { chooseTimeZone, TIME_ZONE_CHOICES, useTimeZoneChoice } from '../../lib/time-zone.ts';
import styles from './user-menu.module.css';

const THEME_LABELS = { system: 'themeSystem', light: 'themeLight', dark: 'themeDark' } as const;

/**
 * The user menu: the signed-in email, an Account sub-menu (My profile, My sessions, Change
 * password), the colour theme (system, light, dark), where times are shown (my zone or UTC)
 * and Logout.
 */
export function UserMenu() {
  const t = useT('chrome');
  const { email, name } = useCurrentUser();
  const theme = useThemeChoice();
  const timeZone = useTimeZoneChoice();
  const initial = (name || email).charAt(0).toUpperCase();
  return (
    <Dropdown
      className="user-menu"
      align="end"
      label={
        <>
          <span className={styles.avatar} aria-hidden="true">
            {initial}
          </span>
          <span className={styles.userEmail}>{email}</span>
        </>
      }
    >
      {(close) => (
        <>
          <div className={styles.menuHeader} role="none">
            <span className="muted">{t('signedInAs')}</span>
            <strong>{name || email}</strong>
          </div>
          <AccountSubmenu close={close} />
          <hr className="menu-separator" />
          <MenuRadioGroup
            label={t('theme')}
            choices={THEMES}
            checked={theme}
            labelOf={(c) => t(THEME_LABELS[c])}
            onChoose={(c) => {
              chooseTheme(c);
              close();
            }}
          />
          <hr className="menu-separator" />
          <MenuRadioGroup
            label={t('times')}
            choices={TIME_ZONE_CHOICES}
            checked={timeZone}
            labelOf={(c) => (c === 'utc' ? t('timesUtc') : t('timesLocal', { zone: viewerTimeZone() }))}
            onChoose={(c) => {
              chooseTimeZone(c);
              close();
            }}
          />
          <hr className="menu-separator" />
          <Link
            role="menuitem"
            className={dropdownMenuStyles.menuItem}
            to={consolePaths.logout()}
            onClick={close}
          >
            {t('logout')}
          </Link>
        </>
      )}
    </Dropdown>
  );
}

/** The Account sub-menu: a menuitem that opens the account's pages (profile, sessions, ...). */
function AccountSubmenu({ close }: { close: () => void }) {
  const t = useT('chrome');
  const { uid } = useCurrentUser();
  const [accountOpen, setAccountOpen] = useState(false);
  const accountId = useId();
  const accountPages = [
    { label: 'myProfile', to: consolePaths.superuserProfile({ uid }) },
    { label: 'mySessions', to: consolePaths.mySessions() },
    { label: 'apiTokens', to: consolePaths.apiTokens() },
    { label: 'notificationSettings', to: consolePaths.notificationSettings() },
    { label: 'signInSecurity', to: consolePaths.security() },
    { label: 'changePassword', to: consolePaths.changePassword() },
  ] as const;
  return (
    <>
      <button
        type="button"
        role="menuitem"
        className={`${dropdownMenuStyles.menuItem} menu-submenu-trigger`}
        aria-haspopup="menu"
        aria-expanded={accountOpen}
        aria-controls={accountId}
        onClick={() => setAccountOpen((o) => !o)}
      >
        {t('account')}
        <span className={dropdownMenuStyles.caret} aria-hidden="true" />
      </button>
      <div
        id={accountId}
        role="menu"
        aria-label={t('account')}
        className={styles.submenu}
        hidden={!accountOpen}
      >
        {accountPages.map((page) => (
          <Link
            key={page.label}
            role="menuitem"
            className={dropdownMenuStyles.menuItem}
            to={page.to}
            onClick={close}
          >
            {t(page.label)}
          </Link>
        ))}
      </div>
    </>
  );
}

/** A labelled group of menuitemradio choices, the checked one marked (WAI-ARIA menu pattern). */
function MenuRadioGroup<C extends string>({
  label,
  choices,
  checked,
  labelOf,
  onChoose,
}: {
  label: string;
  choices: readonly C[];
  checked: C;
  labelOf: (choice: C) => string;
  onChoose: (choice: C) => void;
}) {
  return (
    // biome-ignore lint/a11y/useSemanticElements: a group of menuitemradio inside a menu, not form controls
    <div role="group" aria-label={label}>
      <span className={styles.menuGroupLabel} aria-hidden="true">
        {label}
      </span>
      {choices.map((choice) => (
        <button
          key={choice}
          type="button"
          role="menuitemradio"
          aria-checked={checked === choice}
          className={`${dropdownMenuStyles.menuItem} menu-radio`}
          onClick={() => onChoose(choice)}
        >
          {labelOf(choice)}
          <span className={styles.menuCheck} aria-hidden="true">
            {checked === choice ? '✓' : ''}
          </span>
        </button>
      ))}
    </div>
  );
}
