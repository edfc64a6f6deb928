import { consolePaths } from '@sac/contract/console-paths';
import { type KeyboardEvent, useCallback, useEffect, useId, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { Dialog } from '../../components/dialog.tsx';
import { callApi } from '../../lib/api-client.ts';
import { translatePhrase, useLanguage, useT } from '../../lib/i18n.tsx';
import { useCurrentUser } from '../../lib/session.ts';
import { visibleNavigation } from '../navigation.ts';
import styles from './command-palette.module.css';

/**
 * The command palette (Ctrl+K or ⌘K): jump to any screen the user may open, or find a customer by
 * name, email, UID or API key, a staff member by email and an impersonation request by its Id
 * (digits, or #digits), by keyboard alone; the places chosen last
 * come first. `?` outside a field shows the shortcuts; `/` moves to the screen's search field.
 */

interface Item {
  id: string;
  label: string;
  /** What kind of place: screen, recent, customer, staff, request. */
  kind: 'screen' | 'recent' | 'customer' | 'staff' | 'request';
  to: string;
}

const RECENT_KEY = 'lr-admin-recent-places';
const RECENT_MAX = 6;
/** A term this long or longer asks the API (customers, staff); shorter ones filter screens only. */
const LOOKUP_MIN = 3;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** An impersonation request's Id: looked up from one digit. */
const REQUEST_ID = /^#?([1-9]\d{0,8})$/;

function readRecent(): Item[] {
  try {
    const v = JSON.parse(localStorage.getItem(RECENT_KEY) ?? '[]') as Item[];
    return Array.isArray(v) ? v.slice(0, RECENT_MAX) : [];
  } catch {
    return [];
  }
}
function remember(item: Item) {
  try {
    const next = [{ ...item, kind: 'recent' as const }, ...readRecent().filter((r) => r.to !== item.to)];
    localStorage.setItem(RECENT_KEY, JSON.stringify(next.slice(0, RECENT_MAX)));
  } catch {
    // Without storage there is no recent list.
  }
}

/** The impersonation request of that Id, when the viewer may see it. */
async function lookUpRequest(id: number, signal: AbortSignal): Promise<Item[]> {
  try {
    const r = await callApi('impersonationList', { query: { requestId: id }, signal });
    return r.Data.map((q) => ({
      id: `request:${q.Id}`,
      kind: 'request' as const,
      label: `#${q.Id} · ${q.AppName} · ${q.Action.Status}`,
      to: consolePaths.impersonationRequests({ request: q.Id }),
    }));
  } catch {
    return [];
  }
}

/**
 * Customers (by the criteria the term looks like: a UUID is a UID or an API key), staff (by email)
 * and impersonation requests (by Id) matching a term.
 */
async function lookUp(
  term: string,
  can: { customers: boolean; team: boolean; requests: boolean },
  signal: AbortSignal,
): Promise<Item[]> {
  const out: Item[] = [];
  const requestId = REQUEST_ID.exec(term)?.[1];
  if (requestId !== undefined) {
    if (can.requests) out.push(...(await lookUpRequest(Number(requestId), signal)));
    if (term.length < LOOKUP_MIN || term.startsWith('#')) return out;
  }
  if (can.customers) {
    const criteria = term.includes('@')
      ? ['emailid']
      : UUID.test(term)
        ? ['uid', 'apikey']
        : ['customerName'];
    const seen = new Set<string>();
    for (const criterion of criteria) {
      try {
        const r = await callApi('searchCustomer', { query: { [criterion]: term }, signal });
        for (const c of r.Data.slice(0, 8)) {
          if (seen.has(c.Uid)) continue;
          seen.add(c.Uid);
          out.push({
            id: `customer:${c.Uid}`,
            kind: 'customer',
            label: `${[c.FirstName, c.LastName].filter(Boolean).join(' ')} · ${c.Email}`,
            to: consolePaths.customerView({ uid: c.Uid }),
          });
        }
      } catch {
        // No match answers 927; other failures leave the customers out.
      }
    }
  }
  if (can.team) {
    try {
      const needle = term.toLowerCase();
      const team = await callApi('teamList', { signal });
      for (const s of team.Data) {
        const email = s.Email[0]?.Value ?? '';
        if (!email.toLowerCase().includes(needle) && !s.FullName.toLowerCase().includes(needle)) continue;
        out.push({
          id: `staff:${s.Uid}`,
          kind: 'staff',
          label: `${s.FullName || email} · ${email}`,
          to: consolePaths.superuserProfile({ uid: s.Uid }),
        });
        if (out.length >= 14) break;
      }
    } catch {
      // Staff are left out.
    }
  }
  return out;
}

/** Ctrl+K / ⌘K opens the palette, `?` outside a field the shortcuts, `/` the screen's search field. */
function useGlobalShortcuts(openPalette: () => void, openHelp: () => void) {
  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      const inField = (e.target instanceof Element ? e.target : null)?.closest(
        'input, textarea, select, [contenteditable="true"]',
      );
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        openPalette();
      } else if (!inField && !e.ctrlKey && !e.metaKey && !e.altKey && e.key === '?') {
        e.preventDefault();
        openHelp();
      } else if (!inField && !e.ctrlKey && !e.metaKey && !e.altKey && e.key === '/') {
        const search = document.querySelector<HTMLInputElement>(
          'main [role="search"] input, main input[type="search"]',
        );
        if (search) {
          e.preventDefault();
          search.focus();
        }
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [openPalette, openHelp]);
}

/**
 * The screens the user may open: the navigation's links, the personal ones, then every tab of the
 * navigation's menus (navigation.ts: only what the viewer may open).
 */
function useScreens(): Item[] {
  const t = useT('chrome');
  const { language } = useLanguage();
  const { permissions } = useCurrentUser();
  return useMemo((): Item[] => {
    const screen = (label: string, to: string): Item => ({ id: `screen:${to}`, kind: 'screen', label, to });
    const entries = visibleNavigation(permissions);
    const out: Item[] = [];
    for (const e of entries) if (!('items' in e)) out.push(screen(translatePhrase(language, e.label), e.to));
    out.push(
      screen(t('mySessions'), consolePaths.mySessions()),
      screen(t('apiTokens'), consolePaths.apiTokens()),
      screen(t('changePassword'), consolePaths.changePassword()),
    );
    for (const e of entries) {
      if (!('items' in e)) continue;
      const section = translatePhrase(language, e.label);
      for (const tab of e.items)
        out.push(screen(`${translatePhrase(language, tab.label)} — ${section}`, tab.to));
    }
    return out;
  }, [t, language, permissions]);
}

/**
 * The customers, staff and requests the API finds for the term, asked 250 ms after the last
 * keystroke; `onNewTerm` runs on every new term (the active option goes back to the first).
 */
function useFoundPlaces(needle: string, onNewTerm: () => void): Item[] {
  const { permissions } = useCurrentUser();
  const [found, setFound] = useState<Item[]>([]);
  const canCustomers = permissions.has('customers.read');
  const canTeam = permissions.has('team.read');
  const canRequests = permissions.has('impersonation.request');
  useEffect(() => {
    onNewTerm();
    if (needle.length < LOOKUP_MIN && !REQUEST_ID.test(needle)) {
      setFound((prev) => (prev.length === 0 ? prev : []));
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => {
      void lookUp(
        needle,
        { customers: canCustomers, team: canTeam, requests: canRequests },
        controller.signal,
      ).then((items) => {
        if (!controller.signal.aborted) setFound(items);
      });
    }, 250);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [needle, canCustomers, canTeam, canRequests, onNewTerm]);
  return found;
}

/** The places matching the term: recent ones first, then screens, then what the API found. */
function usePaletteItems(needle: string, onNewTerm: () => void): Item[] {
  const screens = useScreens();
  const [recent] = useState(readRecent);
  const found = useFoundPlaces(needle, onNewTerm);
  return useMemo(() => {
    const match = (i: Item) => !needle || i.label.toLowerCase().includes(needle);
    const first = recent.filter(match);
    const seen = new Set(first.map((r) => r.to));
    return [
      ...first,
      ...screens.filter((s) => match(s) && !seen.has(s.to)),
      ...found.filter((f) => !seen.has(f.to)),
    ];
  }, [needle, screens, found, recent]);
}

/** The open palette: a combobox over the places, arrows to move, Enter or a click to go. */
function PaletteDialog({ onClose }: { onClose: () => void }) {
  const t = useT('chrome');
  const navigate = useNavigate();
  const [term, setTerm] = useState('');
  const [active, setActive] = useState(0);
  const listId = useId();
  const backToFirst = useCallback(() => setActive(0), []);
  const items = usePaletteItems(term.trim().toLowerCase(), backToFirst);

  const go = (item: Item | undefined) => {
    if (!item) return;
    remember(item);
    onClose();
    navigate(item.to);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      if (items.length === 0) return;
      setActive((a) =>
        e.key === 'ArrowDown' ? (a + 1) % items.length : (a - 1 + items.length) % items.length,
      );
    } else if (e.key === 'Enter') {
      e.preventDefault();
      go(items[active]);
    }
  };

  return (
    <Dialog title={t('paletteTitle')} onClose={onClose}>
      <div className="palette">
        <input
          className={styles.paletteInput}
          data-autofocus
          type="text"
          role="combobox"
          aria-expanded={items.length > 0}
          aria-controls={listId}
          aria-activedescendant={items[active] ? `${listId}-${active}` : undefined}
          aria-autocomplete="list"
          aria-label={t('paletteLabel')}
          placeholder={t('palettePlaceholder')}
          value={term}
          onChange={(e) => setTerm(e.target.value)}
          onKeyDown={onKeyDown}
          autoComplete="off"
          spellCheck={false}
        />
        <PaletteOptions listId={listId} items={items} active={active} onHover={setActive} onPick={go} />
        {items.length === 0 ? <p className="muted">{t('paletteNothing')}</p> : null}
        <p className={`muted ${styles.paletteHint}`}>{t('paletteHint')}</p>
      </div>
    </Dialog>
  );
}

function PaletteOptions({
  listId,
  items,
  active,
  onHover,
  onPick,
}: {
  listId: string;
  items: Item[];
  active: number;
  onHover: (index: number) => void;
  onPick: (item: Item) => void;
}) {
  const t = useT('chrome');
  const kindLabel = {
    screen: t('paletteScreen'),
    recent: t('paletteRecent'),
    customer: t('paletteCustomer'),
    staff: t('paletteStaff'),
    request: t('paletteRequest'),
  };
  return (
    <div id={listId} role="listbox" aria-label={t('paletteResults')} className={styles.paletteList}>
      {items.map((item, i) => (
        // biome-ignore lint/a11y/useKeyWithClickEvents: the combobox's input handles the keys (aria-activedescendant)
        <div
          key={item.id}
          id={`${listId}-${i}`}
          role="option"
          tabIndex={-1}
          aria-selected={i === active}
          className={`${styles.paletteOption}${i === active ? ' is-active' : ''}`}
          onMouseEnter={() => onHover(i)}
          onClick={() => onPick(item)}
        >
          <span>{item.label}</span>
          <span className={styles.paletteKind}>{kindLabel[item.kind]}</span>
        </div>
      ))}
    </div>
  );
}

function ShortcutsDialog({ onClose }: { onClose: () => void }) {
  const t = useT('chrome');
  return (
    <Dialog title={t('shortcutsTitle')} onClose={onClose}>
      <dl className={styles.shortcutList}>
        <dt>
          <kbd>Ctrl</kbd> + <kbd>K</kbd> / <kbd>⌘</kbd> + <kbd>K</kbd>
        </dt>
        <dd className={styles.shortcutWhat}>{t('shortcutPalette')}</dd>
        <dt>
          <kbd>/</kbd>
        </dt>
        <dd className={styles.shortcutWhat}>{t('shortcutSearch')}</dd>
        <dt>
          <kbd>?</kbd>
        </dt>
        <dd className={styles.shortcutWhat}>{t('shortcutHelp')}</dd>
        <dt>
          <kbd>Esc</kbd>
        </dt>
        <dd className={styles.shortcutWhat}>{t('shortcutClose')}</dd>
      </dl>
      <div className="form-actions">
        <button type="button" className="button" onClick={onClose}>
          {t('close')}
        </button>
      </div>
    </Dialog>
  );
}

export function CommandPalette() {
  const [open, setOpen] = useState(false);
  const [help, setHelp] = useState(false);
  const openPalette = useCallback(() => setOpen(true), []);
  const openHelp = useCallback(() => setHelp(true), []);
  useGlobalShortcuts(openPalette, openHelp);
  return (
    <>
      {open ? <PaletteDialog onClose={() => setOpen(false)} /> : null}
      {help ? <ShortcutsDialog onClose={() => setHelp(false)} /> : null}
    </>
  );
}
