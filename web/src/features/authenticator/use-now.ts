import { useEffect, useState } from 'react';
import { serverNow } from '@/lib/server-clock';

/**
 * The time by the server's clock (the device clock, corrected when it is more than 15 s off),
 * updated at each whole second: one timer for the whole page, however many accounts it shows.
 */
export function useNow(): number {
  const [now, setNow] = useState(serverNow);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout>;
    const tick = () => {
      const time = serverNow();
      setNow(time);
      // Wake just after the next whole second, so the countdown and the code change together.
      timer = setTimeout(tick, 1000 - (time % 1000) + 5);
    };
    timer = setTimeout(tick, 1000 - (serverNow() % 1000) + 5);
    return () => clearTimeout(timer);
  }, []);
  return now;
}
