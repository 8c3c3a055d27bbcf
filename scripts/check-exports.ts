/**
 * Checks the exports of the given files or folders (default: src/):
 * - every exported declaration has a doc comment;
 * - every optional member of an exported `…Options` interface says its `@default`;
 * - every exported value (function, class, constant) is imported by some other file of src/, scripts/
 *   or test/, else it need not be exported.
 *
 * `npx tsx scripts/check-exports.ts [path …]` prints one line per finding and exits 1 when there is one;
 * test/unit/check-exports.test.ts runs it on src/ and scripts/ in the fast tier.
 */
import path from "node:path";
import { pathToFileURL } from "node:url";
import ts from "typescript";

/** One thing to fix, at a place in a file. */
export interface Finding {
  file: string;
  line: number;
  message: string;
}

/** What {@link checkExports} reads. */
export interface CheckOptions {
  /** The project: its tsconfig.json names the files that may import one another. @default the repository */
  root?: string;
  /** Files or folders to check, relative to `root`. */
  targets: string[];
}

/** The findings in `targets`, each with its file (relative to `root`) and line. */
export function checkExports({ root = path.resolve(import.meta.dirname, ".."), targets }: CheckOptions): Finding[] {
  const program = loadProgram(root);
  const absolute = targets.map((target) => path.resolve(root, target));
  const own = program
    .getSourceFiles()
    .filter((file) => !file.isDeclarationFile && absolute.some((target) => inside(file.fileName, target)));
  const used = importedNames(program);
  return own
    .flatMap((file) => check(file, { root, importedElsewhere: used.get(path.resolve(file.fileName)) }))
    .map((f) => ({ ...f, file: path.relative(root, f.file) }));
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const findings = checkExports({ targets: process.argv.slice(2).length ? process.argv.slice(2) : ["src"] });
  for (const finding of findings) process.stdout.write(`${finding.file}:${finding.line}: ${finding.message}\n`);
  process.stdout.write(`${findings.length} finding${findings.length === 1 ? "" : "s"}\n`);
  process.exitCode = findings.length ? 1 : 0;
}

/** The project's program: src/, scripts/ and test/ as tsconfig.json names them. */
function loadProgram(root: string): ts.Program {
  const configFile = ts.readConfigFile(path.join(root, "tsconfig.json"), ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(configFile.config, ts.sys, root);
  // Parsed, never type-checked: only the project's own files, no library or declaration files.
  const options = { ...parsed.options, noEmit: true, noResolve: true, noLib: true, types: [] };
  // Parent pointers: doc comments and tags are read through them.
  return ts.createProgram({ rootNames: parsed.fileNames, options, host: ts.createCompilerHost(options, true) });
}

function inside(file: string, target: string): boolean {
  const relative = path.relative(target, path.resolve(file));
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}

/**
 * What other files import from each file, by the imported file's path: names, or "*" for a
 * namespace import, a dynamic import or `export *` (anything may be used then).
 */
function importedNames(program: ts.Program): Map<string, Set<string>> {
  const names = new Map<string, Set<string>>();
  const options = program.getCompilerOptions();
  const add = (from: ts.SourceFile, specifier: string, imported: string[]) => {
    const resolved = ts.resolveModuleName(specifier, from.fileName, options, ts.sys).resolvedModule;
    if (!resolved || resolved.isExternalLibraryImport) return;
    const key = path.resolve(resolved.resolvedFileName);
    if (key === path.resolve(from.fileName)) return;
    const set = names.get(key) ?? new Set<string>();
    for (const name of imported) set.add(name);
    names.set(key, set);
  };
  for (const file of program.getSourceFiles()) {
    if (file.isDeclarationFile) continue;
    const visit = (node: ts.Node): void => {
      if (
        (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
        node.moduleSpecifier &&
        ts.isStringLiteral(node.moduleSpecifier)
      ) {
        add(file, node.moduleSpecifier.text, importedBy(node));
      } else if (
        ts.isCallExpression(node) &&
        node.expression.kind === ts.SyntaxKind.ImportKeyword &&
        node.arguments[0] &&
        ts.isStringLiteral(node.arguments[0])
      ) {
        add(file, node.arguments[0].text, ["*"]);
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return names;
}

/** The names an import or re-export takes from its module. */
function importedBy(node: ts.ImportDeclaration | ts.ExportDeclaration): string[] {
  if (ts.isExportDeclaration(node)) {
    if (!node.exportClause || !ts.isNamedExports(node.exportClause)) return ["*"];
    return node.exportClause.elements.map((element) => (element.propertyName ?? element.name).text);
  }
  const clause = node.importClause;
  if (!clause) return [];
  const names = clause.name ? ["default"] : [];
  const bindings = clause.namedBindings;
  if (bindings && ts.isNamespaceImport(bindings)) return ["*"];
  if (bindings) names.push(...bindings.elements.map((element) => (element.propertyName ?? element.name).text));
  return names;
}

/** The findings of one file, given what other files import from it. */
function check(file: ts.SourceFile, { root, importedElsewhere }: { root: string; importedElsewhere: Set<string> | undefined }): Finding[] {
  const findings: Finding[] = [];
  const at = (node: ts.Node, message: string) =>
    findings.push({ file: file.fileName, line: file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1, message });
  for (const statement of file.statements) {
    if (!exported(statement)) continue;
    for (const name of declaredNames(statement)) {
      if (!documented(statement, file)) at(statement, `${name}: exported without a doc comment`);
      // Types stay exported: they name what exported functions take and give.
      if (isType(statement) || isEntryPoint(path.relative(root, file.fileName), importedElsewhere)) continue;
      if (!importedElsewhere) at(statement, `${name}: exported, but no other file imports this file`);
      else if (!importedElsewhere.has("*") && !importedElsewhere.has(name))
        at(statement, `${name}: exported, but no other file imports it`);
    }
    if (ts.isInterfaceDeclaration(statement) && /Options$/.test(statement.name.text)) {
      for (const member of statement.members) {
        if (!member.questionToken || !member.name) continue;
        const tags = ts.getJSDocTags(member).map((tag) => tag.tagName.text);
        if (!tags.includes("default")) at(member, `${statement.name.text}.${member.name.getText(file)}: optional, without @default`);
      }
    }
  }
  return findings;
}

/** Files run as programs: the CLI, and any script that no other file imports. */
function isEntryPoint(relative: string, importedElsewhere: Set<string> | undefined): boolean {
  return relative === path.join("src", "cli", "main.ts") || (relative.startsWith(`scripts${path.sep}`) && !importedElsewhere);
}

function isType(statement: ts.Statement): boolean {
  return ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement);
}

function exported(statement: ts.Statement): boolean {
  return (
    ts.canHaveModifiers(statement) && (ts.getModifiers(statement) ?? []).some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword)
  );
}

function declaredNames(statement: ts.Statement): string[] {
  if (ts.isVariableStatement(statement))
    return statement.declarationList.declarations.map((declaration) => declaration.name.getText(statement.getSourceFile()));
  const name = (statement as ts.DeclarationStatement).name;
  return [name && ts.isIdentifier(name) ? name.text : "default"];
}

/** Whether a `/** … *\/` comment stands right before the statement. */
function documented(statement: ts.Statement, file: ts.SourceFile): boolean {
  const ranges = ts.getLeadingCommentRanges(file.text, statement.getFullStart()) ?? [];
  return ranges.some((range) => file.text.startsWith("/**", range.pos));
}
