import { useEffect, useRef } from 'react';

/** Moves focus to the heading whenever its text changes, so screen readers announce each state. */
export function useFocusedHeading(text: string) {
  const ref = useRef<HTMLHeadingElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: refocus when the heading changes
  useEffect(() => {
    ref.current?.focus({ preventScroll: true });
  }, [text]);
  return ref;
}
