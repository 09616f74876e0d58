// Seconds left until a deadline, ticking once a second; 0 when none.
import { useEffect, useState } from 'react';

export function useCountdown(deadlineMs: number | null): number {
  const secondsLeft = () => (deadlineMs === null ? 0 : Math.max(0, Math.ceil((deadlineMs - Date.now()) / 1000)));
  const [left, setLeft] = useState(secondsLeft);
  useEffect(() => {
    setLeft(secondsLeft());
    if (deadlineMs === null) return;
    const timer = setInterval(() => {
      const next = secondsLeft();
      setLeft(next);
      if (next === 0) clearInterval(timer);
    }, 250);
    return () => clearInterval(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [deadlineMs]);
  return left;
}
