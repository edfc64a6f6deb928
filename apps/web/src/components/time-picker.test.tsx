import { fireEvent, render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { I18nProvider } from '../lib/i18n.tsx';
import { parseTime, TimePicker } from './time-picker.tsx';

function Harness({
  initial = '',
  hours24,
  onChange,
}: {
  initial?: string;
  hours24?: boolean;
  onChange: (v: string) => void;
}) {
  const [value, setValue] = useState(initial);
  return (
    <I18nProvider initial="en">
      <TimePicker
        id="report-time"
        label="Report time"
        value={value}
        hours24={hours24}
        onChange={(v) => {
          setValue(v);
          onChange(v);
        }}
      />
    </I18nProvider>
  );
}

const openPicker = () => {
  fireEvent.click(screen.getByRole('button', { name: /^Report time/ }));
  return screen.getByRole('dialog', { name: 'Report time' });
};

describe('time picker', () => {
  it('reads only HH:mm', () => {
    expect(parseTime('07:35')).toEqual({ h: 7, m: 35 });
    expect(parseTime('24:00')).toBeUndefined();
    expect(parseTime('')).toBeUndefined();
  });

  it('picks an hour, switches to minutes, and gives HH:mm by mouse', () => {
    const onChange = vi.fn();
    render(<Harness onChange={onChange} />);
    expect(screen.getByRole('button', { name: 'Report time Choose a time' })).toBeTruthy();
    const dialog = openPicker();
    expect(within(dialog).getByRole('group', { name: 'Hours' })).toBeTruthy();
    // Twelve hours, 1-12.
    for (let h = 1; h <= 12; h++) within(dialog).getByRole('button', { name: `${h} o'clock` });
    expect((within(dialog).getByRole('button', { name: 'Done' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(within(dialog).getByRole('button', { name: "7 o'clock" }));
    // Picking an hour switches to the minutes dial: 0-55 in steps of 5.
    const minutes = within(dialog).getByRole('group', { name: 'Minutes' });
    expect(within(minutes).getAllByRole('button')).toHaveLength(12);
    expect(within(minutes).queryByRole('button', { name: '7 minutes' })).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: '35 minutes' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'PM' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Done' }));
    expect(onChange).toHaveBeenLastCalledWith('19:35');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByRole('button', { name: 'Report time 7:35 PM' })).toBeTruthy();
  });

  it('is usable by keyboard: arrows move, Enter picks, Escape cancels', () => {
    const onChange = vi.fn();
    render(<Harness initial="09:10" onChange={onChange} />);
    let dialog = openPicker();
    // Focus starts on the chosen hour.
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: "9 o'clock" }));
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowRight' });
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: "10 o'clock" }));
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowLeft' });
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowLeft' });
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: "8 o'clock" }));
    fireEvent.keyDown(document.activeElement!, { key: 'Enter' });
    // Now on the minutes dial, at the chosen minute.
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: '10 minutes' }));
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' });
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: '20 minutes' }));
    fireEvent.keyDown(document.activeElement!, { key: 'Enter' });
    expect(within(dialog).getByRole('button', { name: '20 minutes' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Done' }));
    expect(onChange).toHaveBeenLastCalledWith('08:20');

    // Escape cancels: nothing changes.
    dialog = openPicker();
    fireEvent.keyDown(within(dialog).getByRole('button', { name: "8 o'clock" }), { key: 'ArrowUp' });
    fireEvent.keyDown(document.activeElement!, { key: 'Enter' });
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(onChange).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('button', { name: 'Report time 8:20 AM' })).toBeTruthy();
  });

  it('wraps around the dial, and Clear empties the value', () => {
    const onChange = vi.fn();
    render(<Harness initial="00:55" onChange={onChange} />);
    const dialog = openPicker();
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: "12 o'clock" }));
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowRight' });
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: "1 o'clock" }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Clear' }));
    expect(onChange).toHaveBeenLastCalledWith('');
    expect(screen.getByRole('button', { name: 'Report time Choose a time' })).toBeTruthy();
  });

  it('offers hours 1-24 in 24-hour mode, without AM/PM', () => {
    const onChange = vi.fn();
    render(<Harness hours24 onChange={onChange} />);
    const dialog = openPicker();
    expect(within(dialog).getAllByRole('button', { name: /o'clock$/ })).toHaveLength(24);
    expect(within(dialog).queryByRole('button', { name: 'PM' })).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: "24 o'clock" }));
    fireEvent.click(within(dialog).getByRole('button', { name: '45 minutes' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Done' }));
    expect(onChange).toHaveBeenLastCalledWith('00:45');
    expect(screen.getByRole('button', { name: 'Report time 00:45' })).toBeTruthy();
  });

  // Last: the clock chosen here is remembered for the tab's other pickers.
  it('switches between the 12- and 24-hour clock (12 by default), keeping the time of day', () => {
    const onChange = vi.fn();
    render(<Harness initial="19:35" onChange={onChange} />);
    let dialog = openPicker();
    expect(within(dialog).getByRole('button', { name: '12-hour' }).getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(within(dialog).getByRole('button', { name: '24-hour' }));
    expect(within(dialog).getAllByRole('button', { name: /o'clock$/ })).toHaveLength(24);
    expect(within(dialog).getByRole('button', { name: "19 o'clock" }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    expect(within(dialog).queryByRole('button', { name: 'PM' })).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Done' }));
    expect(onChange).not.toHaveBeenCalled(); // the same time, shown on the other clock
    expect(screen.getByRole('button', { name: 'Report time 19:35' })).toBeTruthy();
    dialog = openPicker();
    fireEvent.click(within(dialog).getByRole('button', { name: '12-hour' }));
    expect(within(dialog).getByRole('button', { name: 'PM' }).getAttribute('aria-pressed')).toBe('true');
    expect(within(dialog).getByRole('button', { name: "7 o'clock" }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Done' }));
    expect(screen.getByRole('button', { name: 'Report time 7:35 PM' })).toBeTruthy();
  });
});
