import { TIME_PICKER } from '@sac/contract/constants';
import { type CSSProperties, type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { useT } from '../lib/i18n.tsx';
import { Dialog } from './dialog.tsx';
import formFieldStyles from './form-field.module.css';
import styles from './time-picker.module.css';

type Period = 'AM' | 'PM';
type View = 'hours' | 'minutes';

const pad = (n: number) => String(n).padStart(2, '0');
const HH_MM = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** The clock the user last chose in a picker (12- or 24-hour), for the rest of this tab's life. */
let chosenHours24: boolean | undefined;

/** 'HH:mm' (24-hour) -> hours and minutes; undefined for '' or anything else. */
export function parseTime(value: string): { h: number; m: number } | undefined {
  const match = HH_MM.exec(value.trim());
  return match ? { h: Number(match[1]), m: Number(match[2]) } : undefined;
}

/** The dial's hour (1-12 with a period, or 1-24) of a 24-hour hour. */
function toDial(h: number, hours24: boolean): { hour: number; period: Period } {
  if (hours24) return { hour: h === 0 ? 24 : h, period: h >= 12 ? 'PM' : 'AM' };
  return { hour: h % 12 === 0 ? 12 : h % 12, period: h >= 12 ? 'PM' : 'AM' };
}

/** The 24-hour hour (0-23) of a dial hour. */
function fromDial(hour: number, period: Period, hours24: boolean): number {
  if (hours24) return hour === 24 ? 0 : hour;
  return (hour % 12) + (period === 'PM' ? 12 : 0);
}

const range = (min: number, max: number, step = 1) => {
  const out: number[] = [];
  for (let v = min; v <= max; v += step) out.push(v);
  return out;
};

/** The dial's positions (ascending: the order the arrow keys follow) per view and mode. */
function positions(view: View, hours24: boolean): number[] {
  if (view === 'minutes')
    return range(TIME_PICKER.minutes.min, TIME_PICKER.minutes.max, TIME_PICKER.minutes.step);
  const h = hours24 ? TIME_PICKER.hours24 : TIME_PICKER.hours12;
  return range(h.min, h.max);
}

/** Where a value sits on the dial: one of 12 slots clockwise from the top, outer or inner ring. */
function slot(view: View, value: number): { index: number; inner: boolean } {
  if (view === 'minutes') return { index: Math.round(value / TIME_PICKER.minutes.step) % 12, inner: false };
  return { index: value % 12, inner: value > 12 };
}

interface TimePickerProps {
  id: string;
  /** The field's label; it names the button (with the chosen time) and the dialog. */
  label: string;
  /** The dialog's title (default: the label). */
  title?: string;
  /** 'HH:mm', 24-hour, or '' for none. */
  value: string;
  onChange: (value: string) => void;
  /** A 24-hour dial (hours 1-24) instead of the default 12-hour dial with AM/PM. */
  hours24?: boolean;
  hint?: string;
  error?: string;
  disabled?: boolean;
}

/**
 * A time of day chosen on a clock dial (spec sections 4 and 9). The button shows the chosen time
 * (or 'Choose a time') and opens a dialog: an hours dial, then a minutes dial (picking an hour
 * switches to minutes), an AM/PM toggle (12-hour mode), and Clear / Cancel / Done. Hours 1-12 (or
 * 1-24), minutes 0-59 in steps of 5, dial size TIME_PICKER.dialSize. Keyboard: the arrow keys move
 * around the dial, Enter picks, Escape cancels. Value in and out as 'HH:mm' (24-hour).
 */
export function TimePicker({
  id,
  label,
  title,
  value,
  onChange,
  hours24 = TIME_PICKER.defaultMode !== '12h',
  hint,
  error,
  disabled,
}: TimePickerProps) {
  const t = useT('common');
  const [open, setOpen] = useState(false);
  // The clock the user chose last (in any picker of this tab), else the field's own.
  const [mode24, setMode24] = useState(() => chosenHours24 ?? hours24);
  const parsed = parseTime(value);
  const shown = parsed ? formatTime(parsed.h, parsed.m, mode24, t) : t('chooseTime');
  const labelId = `${id}-label`;
  const valueId = `${id}-value`;
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy =
    [hint && !error ? hintId : '', error ? errorId : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field ${styles.timePickerField}${error ? ' has-error' : ''}`}>
      <label id={labelId} htmlFor={id}>
        {label}
      </label>
      <button
        id={id}
        type="button"
        className={`${styles.timePickerButton}${parsed ? '' : ` ${styles.timePickerEmpty}`}`}
        aria-labelledby={`${labelId} ${valueId}`}
        aria-describedby={describedBy}
        aria-haspopup="dialog"
        aria-invalid={error ? true : undefined}
        disabled={disabled}
        onClick={() => setOpen(true)}
      >
        <span className={styles.timePickerIcon} aria-hidden="true" />
        <span id={valueId}>{shown}</span>
      </button>
      {hint && !error ? (
        <p id={hintId} className="field-hint">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className={formFieldStyles.fieldError}>
          {error}
        </p>
      ) : null}
      {open ? (
        <TimePickerDialog
          title={title ?? label}
          value={parsed}
          hours24={mode24}
          onHours24Change={(next) => {
            chosenHours24 = next;
            setMode24(next);
          }}
          onCancel={() => setOpen(false)}
          onDone={(next) => {
            setOpen(false);
            if (next !== value) onChange(next);
          }}
        />
      ) : null}
    </div>
  );
}

type T = ReturnType<typeof useT<'common'>>;

function formatTime(h: number, m: number, hours24: boolean, t: T): string {
  if (hours24) return t('time24', { hour: pad(h), minute: pad(m) });
  const d = toDial(h, false);
  return t('time12', { hour: d.hour, minute: pad(m), period: d.period === 'AM' ? t('timeAm') : t('timePm') });
}

const homeOf = (view: View, hours24: boolean) =>
  view === 'hours' ? (hours24 ? 12 : TIME_PICKER.hours12.max) : TIME_PICKER.minutes.min;

/**
 * The dial's state: the hour, minute and period chosen, the view shown and the position that
 * takes focus (a roving tab stop); picking an hour moves on to the minutes, focus following.
 */
function useTimeDial(
  value: { h: number; m: number } | undefined,
  hours24: boolean,
  onHours24Change: (hours24: boolean) => void,
) {
  const initial = value ? toDial(value.h, hours24) : undefined;
  const [hour, setHour] = useState<number | undefined>(initial?.hour);
  const [minute, setMinute] = useState(value?.m ?? 0);
  const [period, setPeriod] = useState<Period>(initial?.period ?? 'AM');
  const [view, setView] = useState<View>('hours');
  const values = positions(view, hours24);
  const selected = view === 'hours' ? hour : minute;
  const [focusValue, setFocusValue] = useState<number>(
    selected !== undefined && values.includes(selected) ? selected : homeOf(view, hours24),
  );
  const buttons = useRef(new Map<number, HTMLButtonElement>());
  const moveFocusIntoDial = useRef(false);

  // After a view change by picking (or the view buttons' keyboard use), focus follows into the dial.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the view changes
  useEffect(() => {
    if (!moveFocusIntoDial.current) return;
    moveFocusIntoDial.current = false;
    buttons.current.get(focusValue)?.focus();
  }, [view]);

  const showView = (next: View, focusDial: boolean) => {
    if (next === view) return;
    const sel = next === 'hours' ? hour : minute;
    const list = positions(next, hours24);
    setFocusValue(sel !== undefined && list.includes(sel) ? sel : homeOf(next, hours24));
    moveFocusIntoDial.current = focusDial;
    setView(next);
  };

  const pick = (v: number) => {
    setFocusValue(v);
    if (view === 'hours') {
      setHour(v);
      if (hours24) setPeriod(v >= 12 && v < 24 ? 'PM' : 'AM');
      showView('minutes', true);
    } else {
      setMinute(v);
    }
  };

  const moveFocus = (next: number) => {
    setFocusValue(next);
    buttons.current.get(next)?.focus();
  };

  const h24 = hour === undefined ? undefined : fromDial(hour, period, hours24);
  /** Another clock: the chosen hour stays the same time of day. */
  const switchClock = (next: boolean) => {
    if (next === hours24) return;
    if (h24 !== undefined) {
      const d = toDial(h24, next);
      setHour(d.hour);
      setPeriod(d.period);
      if (view === 'hours') setFocusValue(d.hour);
    } else if (view === 'hours') setFocusValue(homeOf('hours', next));
    onHours24Change(next);
  };
  return {
    hour,
    minute,
    period,
    setPeriod,
    view,
    values,
    selected,
    focusValue,
    buttons,
    h24,
    showView,
    pick,
    moveFocus,
    switchClock,
  };
}

type Dial = ReturnType<typeof useTimeDial>;

/** The chosen time as read: hours, minutes and (12-hour) the period; '--' before an hour is picked. */
function TimeDisplay({ dial, hours24 }: { dial: Dial; hours24: boolean }) {
  const t = useT('common');
  const { hour, minute, period, view } = dial;
  return (
    <output className={styles.timePickerDisplay} aria-label={t('timeChosen')}>
      <span className={view === 'hours' ? `${styles.timePickerPart} is-active` : styles.timePickerPart}>
        {hour === undefined ? '--' : hours24 ? pad(hour === 24 ? 0 : hour) : String(hour)}
      </span>
      <span aria-hidden="true">{t('timeSeparator')}</span>
      <span className={view === 'minutes' ? `${styles.timePickerPart} is-active` : styles.timePickerPart}>
        {pad(minute)}
      </span>
      {hours24 ? null : (
        <span className={styles.timePickerPeriod}>{period === 'AM' ? t('timeAm') : t('timePm')}</span>
      )}
    </output>
  );
}

/** The toggles: hours or minutes dial, 12- or 24-hour clock, and (12-hour) AM or PM. */
function TimeToggles({ dial, hours24 }: { dial: Dial; hours24: boolean }) {
  const t = useT('common');
  const { view, period, setPeriod, showView, switchClock } = dial;
  return (
    <div className={styles.timePickerToggles}>
      <fieldset className={styles.segmented}>
        <legend className="visually-hidden">{t('timeDialView')}</legend>
        <button
          type="button"
          className={styles.segmentedButton}
          aria-pressed={view === 'hours'}
          onClick={() => showView('hours', false)}
        >
          {t('timeHours')}
        </button>
        <button
          type="button"
          className={styles.segmentedButton}
          aria-pressed={view === 'minutes'}
          onClick={() => showView('minutes', false)}
        >
          {t('timeMinutes')}
        </button>
      </fieldset>
      <fieldset className={styles.segmented}>
        <legend className="visually-hidden">{t('timeClock')}</legend>
        {([false, true] as const).map((is24) => (
          <button
            key={String(is24)}
            type="button"
            className={styles.segmentedButton}
            aria-pressed={hours24 === is24}
            onClick={() => switchClock(is24)}
          >
            {is24 ? t('time24Hour') : t('time12Hour')}
          </button>
        ))}
      </fieldset>
      {hours24 ? null : (
        <fieldset className={styles.segmented}>
          <legend className="visually-hidden">{t('timePeriod')}</legend>
          {(['AM', 'PM'] as const).map((p) => (
            <button
              key={p}
              type="button"
              className={styles.segmentedButton}
              aria-pressed={period === p}
              onClick={() => setPeriod(p)}
            >
              {p === 'AM' ? t('timeAm') : t('timePm')}
            </button>
          ))}
        </fieldset>
      )}
    </div>
  );
}

/** The clock face: a button per position, the hand on the chosen one; the arrow keys go round. */
function TimeDial({ dial, helpId }: { dial: Dial; helpId: string }) {
  const t = useT('common');
  const { view, values, selected, focusValue, buttons, pick, moveFocus } = dial;
  const onDialKey = (e: KeyboardEvent<HTMLButtonElement>, v: number) => {
    const i = values.indexOf(v);
    let next: number | undefined;
    if (e.key === 'ArrowRight' || e.key === 'ArrowDown') next = values[(i + 1) % values.length];
    else if (e.key === 'ArrowLeft' || e.key === 'ArrowUp')
      next = values[(i - 1 + values.length) % values.length];
    else if (e.key === 'Home') next = values[0];
    else if (e.key === 'End') next = values[values.length - 1];
    else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      pick(v);
      return;
    }
    if (next === undefined) return;
    e.preventDefault();
    moveFocus(next);
  };
  const selectedSlot = selected !== undefined && values.includes(selected) ? slot(view, selected) : undefined;
  const dialStyle = { '--dial-size': `${TIME_PICKER.dialSize}px` } as CSSProperties;
  return (
    <fieldset className={styles.timeDial} aria-describedby={helpId} style={dialStyle}>
      <legend className="visually-hidden">{view === 'hours' ? t('timeHours') : t('timeMinutes')}</legend>
      {selectedSlot ? (
        <span
          className={`${styles.dialHand} ${styles[`dial-pos-${selectedSlot.index}`]}${selectedSlot.inner ? ` ${styles.dialInner}` : ''}`}
          aria-hidden="true"
        />
      ) : null}
      <span className={styles.dialCenter} aria-hidden="true" />
      {values.map((v) => {
        const s = slot(view, v);
        const isSelected = v === selected;
        return (
          <button
            key={`${view}-${v}`}
            ref={(el) => {
              if (el) buttons.current.set(v, el);
              else buttons.current.delete(v);
            }}
            type="button"
            className={`${styles.dialPosition} ${styles[`dial-pos-${s.index}`]}${s.inner ? ` ${styles.dialInner}` : ''}${isSelected ? ' is-selected' : ''}`}
            tabIndex={v === focusValue ? 0 : -1}
            aria-pressed={isSelected}
            aria-label={
              view === 'hours' ? t('timeHourPosition', { hour: v }) : t('timeMinutePosition', { minute: v })
            }
            data-autofocus={v === focusValue ? true : undefined}
            onClick={() => pick(v)}
            onKeyDown={(e) => onDialKey(e, v)}
          >
            <span aria-hidden="true">{view === 'hours' ? v : pad(v)}</span>
          </button>
        );
      })}
    </fieldset>
  );
}

function TimePickerDialog({
  title,
  value,
  hours24,
  onHours24Change,
  onCancel,
  onDone,
}: {
  title: string;
  value: { h: number; m: number } | undefined;
  hours24: boolean;
  onHours24Change: (hours24: boolean) => void;
  onCancel: () => void;
  onDone: (value: string) => void;
}) {
  const t = useT('common');
  const helpId = useId();
  const dial = useTimeDial(value, hours24, onHours24Change);
  const { h24, minute } = dial;
  const done = () => {
    if (h24 === undefined) return;
    onDone(`${pad(h24)}:${pad(minute)}`);
  };

  return (
    <Dialog title={title} onClose={onCancel}>
      <div className={styles.timePicker}>
        <div className={styles.timePickerHead}>
          <TimeDisplay dial={dial} hours24={hours24} />
          <TimeToggles dial={dial} hours24={hours24} />
        </div>
        <p id={helpId} className={`field-hint ${styles.timePickerHelp}`}>
          {t('timeDialHelp')}
        </p>
        <TimeDial dial={dial} helpId={helpId} />
        <div className={`form-actions dialog-actions ${styles.timePickerActions}`}>
          <button type="button" className="button" onClick={() => onDone('')}>
            {t('timeClear')}
          </button>
          <span className={styles.timePickerSpacer} />
          <button type="button" className="button" onClick={onCancel}>
            {t('timeCancel')}
          </button>
          <button type="button" className="button button-primary" disabled={h24 === undefined} onClick={done}>
            {t('timeDone')}
          </button>
        </div>
      </div>
    </Dialog>
  );
}
