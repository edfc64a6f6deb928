import { useSyncExternalStore } from 'react';

/**
 * A preference chosen among fixed values and kept in this browser's storage (absent: the
 * default), with a hook that re-renders its readers when it changes. Without storage the choice
 * holds until the page is left.
 */
export function storedChoice<C extends string>(key: string, choices: readonly C[], fallback: C) {
  const listeners = new Set<() => void>();
  let unstored: C | undefined;
  const read = (): C => {
    try {
      const v = localStorage.getItem(key);
      return choices.includes(v as C) ? (v as C) : fallback;
    } catch {
      return unstored ?? fallback;
    }
  };
  const write = (choice: C): void => {
    try {
      if (choice === fallback) localStorage.removeItem(key);
      else localStorage.setItem(key, choice);
    } catch {
      unstored = choice;
    }
    for (const l of listeners) l();
  };
  const subscribe = (l: () => void) => {
    listeners.add(l);
    return () => listeners.delete(l);
  };
  const useChoice = (): C => useSyncExternalStore(subscribe, read, read);
  return { read, write, useChoice };
}
