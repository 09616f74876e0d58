// The tree's expansion animation (spec section 9: at most 1000 px). A branch opening
// goes from 0 to its height, capped at 1000 px, and the height is released at the end
// so a long branch is never cut; closing runs the reverse and then unmounts the rows
// (closed branches render no children). No animation with prefers-reduced-motion.
import { useLayoutEffect, useRef, useState } from 'react';
import { TREE_EXPANSION_MAX_PX } from '../spec/constants';

/** The CSS transition (pageTree.css) plus a margin: ends the animation if transitionend never comes. */
const FALLBACK_MS = 300;

function reducedMotion(): boolean {
  return typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/** The start and end heights of an animation, for a branch `fullPx` tall. */
export function expansionHeights(open: boolean, fullPx: number): [number, number] {
  const capped = Math.min(fullPx, TREE_EXPANSION_MAX_PX);
  return open ? [0, capped] : [capped, 0];
}

/** `rendered`: whether the children are mounted (true while a closing branch animates). */
export function useExpansion(open: boolean) {
  const ref = useRef<HTMLUListElement>(null);
  const [rendered, setRendered] = useState(open);
  const mounted = useRef(false);
  // opening mounts the children in the same render, so they can be measured
  if (open && !rendered) setRendered(true);

  useLayoutEffect(() => {
    if (!mounted.current) {
      mounted.current = true; // the first render does not animate (a large tree opens at once)
      return;
    }
    const el = ref.current;
    if (!el || reducedMotion()) {
      if (!open) setRendered(false);
      return;
    }
    const [from, to] = expansionHeights(open, el.scrollHeight);
    el.classList.add('is-animating');
    el.style.height = `${from}px`;
    void el.offsetHeight; // commit the start height, so the change to `to` transitions
    el.style.height = `${to}px`;
    const release = () => {
      el.removeEventListener('transitionend', onEnd);
      clearTimeout(timer);
      el.classList.remove('is-animating');
      el.style.height = '';
    };
    const finish = () => {
      release();
      if (!open) setRendered(false);
    };
    const onEnd = (event: TransitionEvent) => event.target === el && finish();
    el.addEventListener('transitionend', onEnd);
    const timer = setTimeout(finish, FALLBACK_MS);
    // toggled again mid-way: the next run starts from here (a reopened branch keeps its rows)
    return release;
  }, [open]);

  return { ref, rendered };
}
