// Reads {"document": <GET /api/openapi.json>, "samples": [{method, path, status, body}]}
// from the file named by argv[2] and prints one JSON report:
//   spec:       what @seriousme/openapi-schema-validator says of the document (OpenAPI 3.1)
//   schemas:    schemas Ajv (JSON Schema 2020-12, strict) cannot compile
//   mismatches: samples whose body does not follow the declared answer's schema
//   undeclared: samples of a described route whose status the route does not declare
//   unsampled:  declared 2xx JSON answers with a schema that no sample exercised
// `path` is the route's template ("/api/page/{id}"), as the test called it.
import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

const input = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const { document, samples } = input;
const report = { spec: null, schemas: [], mismatches: [], undeclared: [], unsampled: [], checked: 0 };

const validator = new Validator();
const result = await validator.validate(structuredClone(document));
report.spec = { valid: result.valid, version: validator.version, errors: result.valid ? [] : result.errors };

// Component schemas get absolute ids; "#/components/schemas/X" refs point at them.
const base = 'https://docsd.invalid/schemas/';
const rewrite = (node) => {
  if (Array.isArray(node)) return node.map(rewrite);
  if (node && typeof node === 'object') {
    const out = {};
    for (const [key, value] of Object.entries(node)) {
      out[key] = key === '$ref' && typeof value === 'string' && value.startsWith('#/components/schemas/')
        ? base + value.slice('#/components/schemas/'.length)
        : rewrite(value);
    }
    return out;
  }
  return node;
};
const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });
addFormats(ajv);
for (const [name, schema] of Object.entries(document.components?.schemas ?? {})) {
  try {
    ajv.addSchema({ ...rewrite(schema), $id: base + name });
  } catch (error) {
    report.schemas.push({ where: `components.schemas.${name}`, error: String(error.message ?? error) });
  }
}

const compiled = new Map();
function validatorFor(where, schema) {
  if (!compiled.has(where)) {
    try {
      compiled.set(where, ajv.compile(rewrite(schema)));
    } catch (error) {
      report.schemas.push({ where, error: String(error.message ?? error) });
      compiled.set(where, null);
    }
  }
  return compiled.get(where);
}

const jsonSchemaOf = (answer) => answer?.content?.['application/json']?.schema;
const operations = [];
for (const [path, item] of Object.entries(document.paths ?? {})) {
  for (const [method, op] of Object.entries(item)) {
    if (!op || typeof op !== 'object' || !op.responses) continue;
    operations.push({ path, method, op });
    for (const [status, answer] of Object.entries(op.responses)) {
      const schema = jsonSchemaOf(answer);
      if (schema) validatorFor(`${method} ${path} ${status}`, schema);
    }
    const body = op.requestBody?.content?.['application/json']?.schema;
    if (body) validatorFor(`${method} ${path} body`, body);
  }
}

const sampled = new Set();
for (const sample of samples) {
  const method = sample.method.toLowerCase();
  const op = document.paths?.[sample.path]?.[method];
  const label = `${sample.method} ${sample.path} ${sample.status}`;
  if (!op) {
    report.undeclared.push({ sample: label, why: 'no such operation in the document' });
    continue;
  }
  if (!op['x-docsd-described']) continue;
  const key = String(sample.status);
  const answer = op.responses[key] ?? (sample.status >= 400 ? op.responses.default : undefined);
  if (!answer) {
    report.undeclared.push({ sample: label, why: 'status not declared' });
    continue;
  }
  sampled.add(`${method} ${sample.path} ${key}`);
  const schema = jsonSchemaOf(answer);
  if (!schema) {
    if (answer.content === undefined && sample.body !== null && sample.body !== '')
      report.mismatches.push({ sample: label, errors: ['the answer is declared without a body but has one'] });
    continue;
  }
  const validate = validatorFor(`${method} ${sample.path} ${op.responses[key] ? key : 'default'}`, schema);
  if (!validate) continue;
  report.checked += 1;
  if (!validate(sample.body)) {
    report.mismatches.push({ sample: label, errors: validate.errors, body: sample.body });
  }
}

for (const { path, method, op } of operations) {
  if (!op['x-docsd-described']) continue;
  for (const [status, answer] of Object.entries(op.responses)) {
    if (!/^2\d\d$/.test(status) || !jsonSchemaOf(answer)) continue;
    if (!sampled.has(`${method} ${path} ${status}`)) report.unsampled.push(`${method.toUpperCase()} ${path} ${status}`);
  }
}

process.stdout.write(JSON.stringify(report));
