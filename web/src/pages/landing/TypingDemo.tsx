// The Sync section's animated demo: a commit lands and the page rewrites itself,
// typed a character at a time (shown at once for reduced motion).
import { useEffect, useState } from 'react';

const SCRIPT = [
  { kind: 'commit', text: 'git push origin main  # feat: add refunds to the ledger' },
  { kind: 'heading', text: '## Refunds' },
  { kind: 'text', text: 'A refund reverses a settled payment. `Ledger.refund(paymentId, amount)`' },
  { kind: 'text', text: 'writes a credit entry and emits `payment.refunded`.' },
  { kind: 'done', text: '✓ 3 pages updated from commit 9f2c1e4' },
] as const;

const TOTAL = SCRIPT.reduce((n, line) => n + line.text.length, 0);

function prefersReducedMotion(): boolean {
  return typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
}

export function TypingDemo() {
  const [typed, setTyped] = useState(() => (prefersReducedMotion() ? TOTAL : 0));

  useEffect(() => {
    if (prefersReducedMotion()) return;
    const timer = setInterval(() => {
      setTyped((n) => (n >= TOTAL + 60 ? 0 : n + 1));
    }, 45);
    return () => clearInterval(timer);
  }, []);

  let left = typed;
  return (
    <div className="typing-demo" aria-label="Animation: a push to main updates the documentation">
      <div className="typing-demo__bar" aria-hidden="true"><span /><span /><span /></div>
      <pre className="typing-demo__body" aria-hidden="true">
        {SCRIPT.map((line, index) => {
          const shown = line.text.slice(0, Math.max(0, left));
          const typing = left > 0 && left < line.text.length;
          left -= line.text.length;
          if (!shown) return null;
          return (
            <div key={index} className={`typing-demo__line typing-demo__line--${line.kind}`}>
              {shown}
              {typing && <span className="typing-demo__caret" />}
            </div>
          );
        })}
      </pre>
      <p className="visually-hidden">{SCRIPT.map((l) => l.text).join(' ')}</p>
    </div>
  );
}
