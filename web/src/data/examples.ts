// The examples grid's cards (image, title, description, link to a public project).
// Regenerate the links of a deployment with `node web/scripts/create-examples.mjs`.
import examples from './examples.json';

export interface ExampleCard {
  image: string;
  title: string;
  description: string;
  href: string;
  repository?: string;
}

export const EXAMPLES: readonly ExampleCard[] = examples;
