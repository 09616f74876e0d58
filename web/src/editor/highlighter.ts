// lowlight with the registered languages only (spec section 9), so auto-detection
// picks among them and the editor chunk carries no other grammar.
import { createLowlight } from 'lowlight';
import apache from 'highlight.js/lib/languages/apache';
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import cpp from 'highlight.js/lib/languages/cpp';
import csharp from 'highlight.js/lib/languages/csharp';
import css from 'highlight.js/lib/languages/css';
import dockerfile from 'highlight.js/lib/languages/dockerfile';
import go from 'highlight.js/lib/languages/go';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import kotlin from 'highlight.js/lib/languages/kotlin';
import markdown from 'highlight.js/lib/languages/markdown';
import nginx from 'highlight.js/lib/languages/nginx';
import php from 'highlight.js/lib/languages/php';
import powershell from 'highlight.js/lib/languages/powershell';
import python from 'highlight.js/lib/languages/python';
import ruby from 'highlight.js/lib/languages/ruby';
import rust from 'highlight.js/lib/languages/rust';
import scala from 'highlight.js/lib/languages/scala';
import scss from 'highlight.js/lib/languages/scss';
import shell from 'highlight.js/lib/languages/shell';
import sql from 'highlight.js/lib/languages/sql';
import swift from 'highlight.js/lib/languages/swift';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';
import { CODE_LANGUAGES, HIGHLIGHT_GRAMMAR } from './rules/languages';
import { detectSpecialLanguage } from './rules/detectLanguage';

export const lowlight = createLowlight({
  apache, bash, c, cpp, csharp, css, dockerfile, go, java, javascript, json, kotlin, markdown, nginx, php,
  powershell, python, ruby, rust, scala, scss, shell, sql, swift, typescript, xml, yaml,
});
// The spec's names that highlight.js spells differently.
lowlight.registerAlias({ cpp: ['c++'], bash: ['sh'], xml: ['html'], yaml: ['openapi'] });

const AUTO_SUBSET = CODE_LANGUAGES.map((l) => HIGHLIGHT_GRAMMAR[l] ?? l).filter((l, i, all) => lowlight.registered(l) && all.indexOf(l) === i);

/** The language of a block without one: diagram and OpenAPI first, then highlight.js. */
export function detectLanguage(code: string): string | null {
  if (!code.trim()) return null;
  const special = detectSpecialLanguage(code);
  if (special) return special;
  const guess = lowlight.highlightAuto(code, { subset: AUTO_SUBSET });
  const name = guess.data?.language;
  return name && (guess.data?.relevance ?? 0) >= 5 ? (name === 'cpp' ? 'c++' : name) : null;
}
