// How much of a Go library's documentation reaches its generated pages.
//
// Reads every package of SOURCE with Go's own parser (go/parser, comments kept) and
// documentation tool (go/doc, as `go doc` and pkg.go.dev read it) and takes the public
// documented declarations go/doc shows: exported functions, exported types with their
// methods (promoted ones included) and the factory functions, constants and variables it
// files under them, and exported constants and variables (a group counted once with its
// group comment, otherwise each spec with its own comment). Test files, files and folders
// the go tool ignores (leading `.` or `_`, testdata), vendor, any `internal` segment and
// example or documentation folders (examples, example, _examples, docs) are left out.
// For each it checks that the summary `go doc` shows ((*doc.Package).Synopsis of the
// comment) is on the page `docsd generate SOURCE --out OUT` wrote for the file declaring
// it; markup (links, backticks, asterisks) and whitespace are ignored in the comparison.
// It also counts the rows of the pages' API tables that name a declaration go/doc finds
// only in private places (an unexported name, or a member of an unexported type). Prints a
// JSON summary and, with --misses, what was not found.
//
// Usage: go run scripts/quality/go_doc_coverage.go SOURCE OUT [--misses]
package main

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

var skipDirs = map[string]bool{"testdata": true, "vendor": true, "internal": true, "examples": true,
	"example": true, "_examples": true, "docs": true}

var (
	link       = regexp.MustCompile(`\[([^\[\]]*)\]\([^)]*\)`)
	markup     = regexp.MustCompile("[`*_\\\\|]")
	space      = regexp.MustCompile(`\s+`)
	apiRowName = regexp.MustCompile("^\\|[^`]*`([^`]+)`")
)

func normalise(text string) string {
	text = link.ReplaceAllString(text, "$1")
	text = markup.ReplaceAllString(text, "")
	return strings.ToLower(strings.TrimSpace(space.ReplaceAllString(text, " ")))
}

// ignored reports whether the go tool (or this measure) leaves a file or folder out.
func ignored(name string) bool {
	return strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || skipDirs[name]
}

type entry struct {
	file string // relative to SOURCE
	line int
	name string
	doc  string
}

type report struct {
	total, found, apiRows, privateRows int
	misses                             []string
}

func modulePath(source string) string {
	data, err := os.ReadFile(filepath.Join(source, "go.mod"))
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(data), "\n") {
		if fields := strings.Fields(line); len(fields) >= 2 && fields[0] == "module" {
			return strings.Trim(fields[1], `"`)
		}
	}
	return ""
}

func receiverType(expr ast.Expr) string {
	switch t := expr.(type) {
	case *ast.StarExpr:
		return receiverType(t.X)
	case *ast.IndexExpr:
		return receiverType(t.X)
	case *ast.IndexListExpr:
		return receiverType(t.X)
	case *ast.Ident:
		return t.Name
	}
	return ""
}

// declaredNames lists every name the package declares at top level, as methods, as struct
// fields or as interface methods, each with the type it belongs to ("" at top level).
func declaredNames(pkg *ast.Package) map[string][]string {
	names := map[string][]string{}
	members := func(owner string, typ ast.Expr) {
		var list *ast.FieldList
		switch t := typ.(type) {
		case *ast.StructType:
			list = t.Fields
		case *ast.InterfaceType:
			list = t.Methods
		}
		if list == nil {
			return
		}
		for _, field := range list.List {
			for _, n := range field.Names {
				names[n.Name] = append(names[n.Name], owner)
			}
		}
	}
	for _, file := range pkg.Files {
		for _, decl := range file.Decls {
			switch d := decl.(type) {
			case *ast.FuncDecl:
				owner := ""
				if d.Recv != nil && len(d.Recv.List) > 0 {
					owner = receiverType(d.Recv.List[0].Type)
				}
				names[d.Name.Name] = append(names[d.Name.Name], owner)
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					switch s := spec.(type) {
					case *ast.TypeSpec:
						names[s.Name.Name] = append(names[s.Name.Name], "")
						members(s.Name.Name, s.Type)
					case *ast.ValueSpec:
						for _, n := range s.Names {
							names[n.Name] = append(names[n.Name], "")
						}
					}
				}
			}
		}
	}
	return names
}

// publicNames lists every name go/doc shows for the package (mode 0 keeps exported
// declarations only, and only the exported fields and methods of exported types).
func publicNames(p *doc.Package) map[string]bool {
	public := map[string]bool{}
	values := func(list []*doc.Value) {
		for _, v := range list {
			for _, n := range v.Names {
				public[n] = true
			}
		}
	}
	values(p.Consts)
	values(p.Vars)
	for _, f := range p.Funcs {
		public[f.Name] = true
	}
	for _, t := range p.Types {
		public[t.Name] = true
		values(t.Consts)
		values(t.Vars)
		for _, f := range t.Funcs {
			public[f.Name] = true
		}
		for _, f := range t.Methods {
			public[f.Name] = true
		}
		for _, spec := range t.Decl.Specs {
			ts, ok := spec.(*ast.TypeSpec)
			if !ok {
				continue
			}
			var list *ast.FieldList
			switch typ := ts.Type.(type) {
			case *ast.StructType:
				list = typ.Fields
			case *ast.InterfaceType:
				list = typ.Methods
			}
			if list == nil {
				continue
			}
			for _, field := range list.List {
				for _, n := range field.Names {
					public[n.Name] = true
				}
			}
		}
	}
	return public
}

// documented lists the public documented declarations of a go/doc package.
func documented(p *doc.Package, fset *token.FileSet, source string) []entry {
	var out []entry
	seen := map[string]bool{}
	add := func(pos token.Pos, name, text string) {
		if strings.TrimSpace(text) == "" {
			return
		}
		position := fset.Position(pos)
		relative, err := filepath.Rel(source, position.Filename)
		if err != nil {
			relative = position.Filename
		}
		key := fmt.Sprintf("%s:%d:%s", relative, position.Line, name)
		if seen[key] {
			return
		}
		seen[key] = true
		out = append(out, entry{filepath.ToSlash(relative), position.Line, name, text})
	}
	values := func(list []*doc.Value) {
		for _, v := range list {
			if strings.TrimSpace(v.Doc) != "" {
				add(v.Decl.Pos(), v.Names[0], v.Doc)
				continue
			}
			for _, spec := range v.Decl.Specs {
				vs, ok := spec.(*ast.ValueSpec)
				if !ok || vs.Doc == nil {
					continue
				}
				for _, n := range vs.Names {
					if n.IsExported() {
						add(vs.Pos(), n.Name, vs.Doc.Text())
						break
					}
				}
			}
		}
	}
	funcs := func(prefix string, list []*doc.Func) {
		for _, f := range list {
			add(f.Decl.Pos(), prefix+f.Name, f.Doc)
		}
	}
	values(p.Consts)
	values(p.Vars)
	funcs("", p.Funcs)
	for _, t := range p.Types {
		pos := t.Decl.Pos()
		for _, spec := range t.Decl.Specs {
			if ts, ok := spec.(*ast.TypeSpec); ok && ts.Name.Name == t.Name {
				pos = ts.Pos()
			}
		}
		add(pos, t.Name, t.Doc)
		values(t.Consts)
		values(t.Vars)
		funcs("", t.Funcs)
		funcs(t.Name+".", t.Methods)
	}
	return out
}

func pageText(out, relative string, cache map[string]string) string {
	if text, ok := cache[relative]; ok {
		return text
	}
	data, _ := os.ReadFile(filepath.Join(out, "files", filepath.FromSlash(relative)+".md"))
	cache[relative] = string(data)
	return string(data)
}

func measure(source, out, dir string, module string, r *report) {
	fset := token.NewFileSet()
	keep := func(info fs.FileInfo) bool {
		name := info.Name()
		return !strings.HasSuffix(name, "_test.go") && !strings.HasPrefix(name, ".") && !strings.HasPrefix(name, "_")
	}
	pkgs, err := parser.ParseDir(fset, dir, keep, parser.ParseComments)
	if err != nil && len(pkgs) == 0 {
		fmt.Fprintf(os.Stderr, "%s: %v\n", dir, err)
		return
	}
	relativeDir, _ := filepath.Rel(source, dir)
	importPath := strings.TrimSuffix(module+"/"+filepath.ToSlash(relativeDir), "/.")
	pages := map[string]string{}
	names := make([]string, 0, len(pkgs))
	for name := range pkgs {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		pkg := pkgs[name]
		declared := declaredNames(pkg) // before go/doc filters the syntax trees
		files := make([]string, 0, len(pkg.Files))
		for path := range pkg.Files {
			files = append(files, path)
		}
		sort.Strings(files)
		p := doc.New(pkg, importPath, 0)
		for _, e := range documented(p, fset, source) {
			r.total++
			summary := normalise(p.Synopsis(e.doc))
			if len(summary) > 80 {
				summary = summary[:80]
			}
			page := normalise(pageText(out, e.file, pages))
			if summary != "" && strings.Contains(page, summary) {
				r.found++
			} else {
				r.misses = append(r.misses, fmt.Sprintf("%s:%d: %s: %s", e.file, e.line, e.name, summary))
			}
		}
		// API rows naming only private declarations.
		public := publicNames(p)
		private := func(name string) bool { return len(declared[name]) > 0 && !public[name] }
		for _, path := range files {
			relative, _ := filepath.Rel(source, path)
			relative = filepath.ToSlash(relative)
			text := pageText(out, relative, pages)
			start := strings.Index(text, "\n## API\n")
			if start < 0 {
				continue
			}
			api := text[start+len("\n## API\n"):]
			if end := strings.Index(api, "\n## "); end >= 0 {
				api = api[:end]
			}
			rows := strings.Split(api, "\n")
			for i, row := range rows {
				row = strings.TrimSpace(row)
				if !strings.HasPrefix(row, "|") || strings.HasPrefix(strings.TrimLeft(row, "| "), "---") ||
					(i+1 < len(rows) && strings.HasPrefix(strings.TrimLeft(strings.TrimSpace(rows[i+1]), "| "), "---")) {
					continue // not a row, the separator, or the header above it
				}
				r.apiRows++
				match := apiRowName.FindStringSubmatch(row)
				if match == nil {
					continue
				}
				parts := strings.Split(match[1], ".")
				last := parts[len(parts)-1]
				owner := ""
				if len(parts) > 1 {
					owner = parts[len(parts)-2]
				}
				if private(last) || (owner != "" && private(owner)) {
					r.privateRows++
					r.misses = append(r.misses, fmt.Sprintf("%s: private in the API table: %s", relative, match[1]))
				}
			}
		}
	}
}

func main() {
	if len(os.Args) < 3 {
		fmt.Println("Usage: go run scripts/quality/go_doc_coverage.go SOURCE OUT [--misses]")
		os.Exit(2)
	}
	source, err := filepath.Abs(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	out := os.Args[2]
	module := modulePath(source)
	var dirs []string
	filepath.WalkDir(source, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return nil
		}
		if path != source && ignored(d.Name()) {
			return filepath.SkipDir
		}
		dirs = append(dirs, path)
		return nil
	})
	r := &report{}
	for _, dir := range dirs {
		measure(source, out, dir, module, r)
	}
	var share interface{}
	if r.total > 0 {
		share = math.Round(float64(r.found)/float64(r.total)*10000) / 10000
	}
	fmt.Printf("{\"public_documented\": %d, \"summary_on_page\": %d, \"share\": %s, \"api_rows\": %d, \"private_api_rows\": %d}\n",
		r.total, r.found, jsonValue(share), r.apiRows, r.privateRows)
	if len(os.Args) > 3 && os.Args[3] == "--misses" {
		for _, miss := range r.misses {
			fmt.Println(miss)
		}
	}
}

// jsonValue writes a value as the sibling scripts' json.dumps does (a whole share as 1.0).
func jsonValue(v interface{}) string {
	data, _ := json.Marshal(v)
	if f, ok := v.(float64); ok && f == math.Trunc(f) {
		return string(data) + ".0"
	}
	return string(data)
}
