#!/usr/bin/env node
/*
How much of a JavaScript/TypeScript library's documentation reaches its generated pages.

Reads SOURCE with TypeScript's own parser and checker (the compiler in web/node_modules, as
TypeDoc uses it): one ts.Program (allowJs, noEmit) over the .ts/.tsx/.mts/.cts/.js/.mjs/.cjs
files of SOURCE, leaving out node_modules, dist, build, coverage, test/tests/__tests__/spec,
examples/example, docs, benchmark(s) and fixtures folders, hidden folders, and files named
*.test.* / *.spec.* / *.d.ts (declaration files are kept when the package has nothing else).
The public declarations are what each module exports by the checker (getExportsOfModule, with
aliases such as `export {a}`, `export default a` and re-exports followed to the declaring
file, each declaration counted once): functions, classes, interfaces, type aliases, enums and
exported const/let/var variables, plus the members of exported classes, interfaces and of
type aliases that are an object literal type (`type Options = {...}`, TypeDoc lists those
as properties too): properties, methods, accessors and constructors, not private, not
#private. Anything tagged @internal, @private, @hidden or @ignore is left out (with its
members), as are namespaces and the implementation signature of an overloaded function.
A declaration counts when its JSDoc/TSDoc comment has main text; its summary is the first
sentence of the comment's first paragraph (up to '.', '!' or '?' before whitespace or the
end, not after e.g./i.e./etc.), with {@link X} read as X and {@link X | text} as text.
That summary must be on the page `docsd generate SOURCE --out OUT` wrote for the declaring
file (OUT/files/<relative path>.md): on both sides Markdown links `[text](url)` become
text, the characters ` * _ \ | are dropped, whitespace is collapsed and case is lowered,
and the first 80 characters of the summary are looked for in the page.

It also counts the rows of each page's API tables (between "## API" and the next "## "
heading, rows starting with "| [`") and how many name a top-level declaration of that file
that the file does not export (the last '.'-separated segment of the name in the first
backticks; only a name declared at the top of that file and exported under no declaration
there counts; script files without imports/exports export nothing and are not checked).

Prints one JSON line and, with --misses, a line per summary not found ("path:line: Name:
summary") and per private API row.

Usage: node scripts/quality/ts_doc_coverage.mjs SOURCE OUT [--misses]
*/
import fs from 'node:fs';
import path from 'node:path';
import {createRequire} from 'node:module';
import {fileURLToPath} from 'node:url';

const __dirname = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const ts = require(path.join(__dirname, '../../web/node_modules/typescript'));

const SKIP_DIRS = new Set(['node_modules', 'dist', 'build', 'coverage', 'test', 'tests', '__tests__', 'spec',
	'examples', 'example', 'docs', 'benchmark', 'benchmarks', 'fixtures']);
const EXTENSIONS = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;
const DECLARATION_FILE = /\.d\.(ts|mts|cts)$|\.d\.[^.]+\.ts$/;
const HIDDEN_TAGS = new Set(['internal', 'private', 'hidden', 'ignore']);

function sourceFiles(root) {
	const found = [];
	const walk = directory => {
		for (const entry of fs.readdirSync(directory, {withFileTypes: true})) {
			const full = path.join(directory, entry.name);
			if (entry.isDirectory()) {
				if (!entry.name.startsWith('.') && !SKIP_DIRS.has(entry.name.toLowerCase())) {
					walk(full);
				}
			} else if (entry.isFile() && EXTENSIONS.test(entry.name) && !/\.(test|spec)\./.test(entry.name)) {
				found.push(full);
			}
		}
	};

	walk(root);
	const code = found.filter(file => !DECLARATION_FILE.test(file));
	return (code.length > 0 ? code : found).sort();
}

function firstSentence(text) {
	const paragraph = text.trim().split(/\n\s*\n/)[0];
	const joined = paragraph.split(/\s+/).join(' ');
	const match = /(?<!\be\.g)(?<!\bi\.e)(?<!\betc)[.!?](\s|$)/i.exec(joined);
	return match ? joined.slice(0, match.index + 1).trim() : joined;
}

function normalise(text) {
	text = text.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1'); // [text](url) -> text
	text = text.replace(/[`*_\\|]/g, '');
	return text.replace(/\s+/g, ' ').trim().toLowerCase();
}

// The main text of a JSDoc comment, {@link X} read as X and {@link X | text} as text.
function commentText(comment) {
	if (comment === undefined) {
		return '';
	}

	if (typeof comment === 'string') {
		return comment;
	}

	return comment.map(part => {
		if (part.kind === ts.SyntaxKind.JSDocText) {
			return part.text;
		}

		let name = part.name ? part.name.getText() : '';
		let text = (part.text || '').replace(/^\s*\|/, '').trim();
		if (/^https?$/.test(name) && text.startsWith('://')) { // {@link https://x} parses as name "https"
			const [url, ...rest] = text.split(/\s+/);
			name += url;
			text = rest.join(' ').replace(/^\|\s*/, '');
		}

		return text || name;
	}).join('');
}

function jsDocs(declaration) {
	return ts.getJSDocCommentsAndTags(declaration).filter(node => ts.isJSDoc(node));
}

function hidden(declaration) {
	return ts.getJSDocTags(declaration).some(tag => HIDDEN_TAGS.has(tag.tagName.text));
}

function summaryOf(declaration) {
	const docs = jsDocs(declaration).filter(doc => commentText(doc.comment).trim());
	if (docs.length === 0) {
		return '';
	}

	// TypeDoc takes the comment nearest the declaration.
	return firstSentence(commentText(docs.at(-1).comment));
}

const KEPT_TOP = new Set([ts.SyntaxKind.FunctionDeclaration, ts.SyntaxKind.ClassDeclaration,
	ts.SyntaxKind.InterfaceDeclaration, ts.SyntaxKind.TypeAliasDeclaration, ts.SyntaxKind.EnumDeclaration,
	ts.SyntaxKind.VariableDeclaration, ts.SyntaxKind.ExportAssignment, ts.SyntaxKind.ClassExpression,
	ts.SyntaxKind.FunctionExpression, ts.SyntaxKind.ArrowFunction]);
const SKIPPED_MEMBERS = new Set(['__call', '__new', '__index', 'prototype']);

function isOverloadImplementation(declaration, symbol) {
	if (!ts.isFunctionLike(declaration) || !declaration.body) {
		return false;
	}

	return (symbol.declarations || []).some(other => other !== declaration && ts.isFunctionLike(other)
		&& !other.body && other.kind === declaration.kind);
}

function isPrivateMember(declaration) {
	if (declaration.name && ts.isPrivateIdentifier(declaration.name)) {
		return true;
	}

	return Boolean(ts.getCombinedModifierFlags(declaration) & ts.ModifierFlags.Private);
}

function apiRows(page) {
	const start = page.indexOf('\n## API\n');
	if (start < 0) {
		return [];
	}

	const end = page.indexOf('\n## ', start + 1);
	const section = page.slice(start, end >= 0 ? end : page.length);
	const rows = [];
	for (const line of section.split('\n')) {
		if (line.startsWith('| [`')) {
			const name = line.slice(4).split('`', 1)[0];
			rows.push([name, name.split('.').at(-1)]);
		}
	}

	return rows;
}

function topLevelNames(sourceFile) {
	const names = [];
	const bindingNames = name => {
		if (ts.isIdentifier(name)) {
			names.push(name.text);
		} else {
			for (const element of name.elements) {
				if (!ts.isOmittedExpression(element)) {
					bindingNames(element.name);
				}
			}
		}
	};

	for (const statement of sourceFile.statements) {
		if (ts.isVariableStatement(statement)) {
			for (const declaration of statement.declarationList.declarations) {
				bindingNames(declaration.name);
			}
		} else if ((ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement)
			|| ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement)
			|| ts.isEnumDeclaration(statement) || ts.isModuleDeclaration(statement)) && statement.name
			&& ts.isIdentifier(statement.name)) {
			names.push(statement.name.text);
		}
	}

	return names;
}

function main() {
	const args = process.argv.slice(2).filter(argument => !argument.startsWith('--'));
	if (args.length < 2) {
		const text = fs.readFileSync(fileURLToPath(import.meta.url), 'utf8');
		console.log(text.slice(text.indexOf('/*') + 2, text.indexOf('*/')).trim());
		return 2;
	}

	const source = path.resolve(args[0]);
	const out = path.resolve(args[1]);
	const files = sourceFiles(source);
	const program = ts.createProgram(files, {
		allowJs: true, checkJs: false, noEmit: true, skipLibCheck: true, jsx: ts.JsxEmit.Preserve,
		target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler,
		allowImportingTsExtensions: true, resolveJsonModule: true, types: [],
	});
	const checker = program.getTypeChecker();
	const inSet = new Set(files.map(file => path.resolve(file)));
	const relative = sourceFile => path.relative(source, sourceFile.fileName).split(path.sep).join('/');

	const pages = new Map();
	const page = file => {
		if (!pages.has(file)) {
			const full = path.join(out, 'files', file + '.md');
			const raw = fs.existsSync(full) ? fs.readFileSync(full, 'utf8') : '';
			pages.set(file, [raw, normalise(raw)]);
		}

		return pages.get(file);
	};

	const seen = new Set();
	let total = 0;
	let found = 0;
	const misses = [];
	const check = (declaration, symbol, label, summaries) => {
		const sourceFile = declaration.getSourceFile();
		if (seen.has(declaration) || !inSet.has(path.resolve(sourceFile.fileName))
			|| isOverloadImplementation(declaration, symbol)) {
			return;
		}

		seen.add(declaration);
		const summary = summaryOf(declaration);
		if (!summary || summaries.has(summary)) { // overloads and accessor pairs with one comment count once
			return;
		}

		summaries.add(summary);
		total += 1;
		const file = relative(sourceFile);
		const text = normalise(summary).slice(0, 80);
		if (text && page(file)[1].includes(text)) {
			found += 1;
		} else {
			const line = sourceFile.getLineAndCharacterOfPosition(declaration.getStart(sourceFile)).line + 1;
			misses.push(`${file}:${line}: ${label}: ${text}`);
		}
	};

	const members = (symbol, declarations, owner) => {
		const table = new Map();
		for (const declaration of declarations) {
			if (ts.isClassDeclaration(declaration) || ts.isClassExpression(declaration)
				|| ts.isInterfaceDeclaration(declaration)) {
				for (const member of declaration.members) {
					const memberSymbol = member.symbol;
					if (memberSymbol) {
						table.set(memberSymbol, member.kind === ts.SyntaxKind.Constructor ? 'constructor' : memberSymbol.name);
					}
				}
			} else if (ts.isTypeAliasDeclaration(declaration) && ts.isTypeLiteralNode(declaration.type)) {
				for (const member of declaration.type.members) {
					if (member.symbol) {
						table.set(member.symbol, member.symbol.name);
					}
				}
			}
		}

		for (const [memberSymbol, name] of table) {
			if (SKIPPED_MEMBERS.has(name)) {
				continue;
			}

			const summaries = new Set();
			for (const declaration of memberSymbol.declarations || []) {
				if (!declarations.includes(declaration.parent) && !declarations.includes(declaration.parent?.parent)) {
					continue;
				}

				if (isPrivateMember(declaration) || hidden(declaration)) {
					continue;
				}

				check(declaration, memberSymbol, `${owner}.${name}`, summaries);
			}
		}
	};

	const exportedNames = new Map(); // file -> names declared there and exported
	const isModule = new Set();
	for (const sourceFile of program.getSourceFiles()) {
		if (!inSet.has(path.resolve(sourceFile.fileName))) {
			continue;
		}

		const moduleSymbol = checker.getSymbolAtLocation(sourceFile);
		if (!moduleSymbol) {
			continue;
		}

		isModule.add(relative(sourceFile));
		for (const exported of checker.getExportsOfModule(moduleSymbol)) {
			let symbol = exported;
			if (symbol.flags & ts.SymbolFlags.Alias) {
				try {
					symbol = checker.getAliasedSymbol(symbol);
				} catch {
					continue;
				}
			}

			const declarations = (symbol.declarations || []).filter(declaration =>
				inSet.has(path.resolve(declaration.getSourceFile().fileName)));
			for (const declaration of declarations) {
				const file = relative(declaration.getSourceFile());
				if (!exportedNames.has(file)) {
					exportedNames.set(file, new Set());
				}

				exportedNames.get(file).add(symbol.name);
				if (declaration.name && ts.isIdentifier(declaration.name)) {
					exportedNames.get(file).add(declaration.name.text);
				}

				if (ts.isExportAssignment(declaration) && ts.isIdentifier(declaration.expression)) {
					exportedNames.get(file).add(declaration.expression.text);
				}
			}

			const kept = declarations.filter(declaration => KEPT_TOP.has(declaration.kind)
				&& !(ts.isVariableDeclaration(declaration) && !ts.isIdentifier(declaration.name))
				&& !hidden(declaration));
			const named = kept.find(declaration => declaration.name && ts.isIdentifier(declaration.name));
			const label = exported.name === 'default' && named ? `default (${named.name.text})` : exported.name;
			const summaries = new Set();
			for (const declaration of kept) {
				check(declaration, symbol, label, summaries);
			}

			const owners = kept.filter(declaration => ts.isClassDeclaration(declaration) || ts.isClassExpression(declaration)
				|| ts.isInterfaceDeclaration(declaration) || ts.isTypeAliasDeclaration(declaration));
			if (owners.length > 0) {
				members(symbol, owners, label);
			}
		}
	}

	let rows = 0;
	const privateRows = [];
	for (const sourceFile of program.getSourceFiles()) {
		if (!inSet.has(path.resolve(sourceFile.fileName))) {
			continue;
		}

		const file = relative(sourceFile);
		const exported = exportedNames.get(file) || new Set();
		const declared = new Set(topLevelNames(sourceFile));
		for (const [name, last] of apiRows(page(file)[0])) {
			rows += 1;
			if (isModule.has(file) && declared.has(last) && !exported.has(last)) {
				privateRows.push(`${file}: private API row: ${name} (declared here, not exported)`);
			}
		}
	}

	const result = {public_documented: total, summary_on_page: found,
		share: total ? Math.round(found / total * 10000) / 10000 : null,
		api_rows: rows, private_api_rows: privateRows.length};
	console.log(JSON.stringify(result));
	if (process.argv.includes('--misses')) {
		for (const line of [...misses, ...privateRows]) {
			console.log(line);
		}
	}

	return 0;
}

process.exitCode = main();
