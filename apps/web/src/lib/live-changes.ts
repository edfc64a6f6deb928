import type { StaffChangeEventData } from '@sac/contract/staff-notifications';
import { useEffect, useRef } from 'react';

/**
 * "Something changed on the server": the notification stream (the bell's, one per tab) announces
 * here what its 'changed' events name, and the screens that show it read again. A feature of its
 * own on each side, so it lives in lib/.
 */
type Topic = StaffChangeEventData['Topic'];

const changes = new EventTarget();

export function announceChange(topic: Topic): void {
  changes.dispatchEvent(new Event(topic));
}

/** Runs `onChange` on every announced change of `topic` while the component is shown. */
export function useOnChange(topic: Topic, onChange: () => void): void {
  const latest = useRef(onChange);
  latest.current = onChange;
  useEffect(() => {
    const handler = () => latest.current();
    changes.addEventListener(topic, handler);
    return () => changes.removeEventListener(topic, handler);
  }, [topic]);
}
