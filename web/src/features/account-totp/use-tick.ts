import { useEffect, useState } from 'react';

/**
 * `clock()` re-read just after each of its whole seconds, so a countdown and the code it belongs
 * to change together. One timer per caller; stops when the component unmounts.
 */
export function useTick(clock: () => number): number {
  const [now, setNow] = useState(clock);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout>;
    const schedule = () => {
      timer = setTimeout(
        () => {
          setNow(clock());
          schedule();
        },
        1000 - (clock() % 1000) + 5,
      );
    };
    schedule();
    return () => clearTimeout(timer);
  }, [clock]);
  return now;
}
