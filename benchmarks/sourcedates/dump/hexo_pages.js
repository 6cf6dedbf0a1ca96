// Print [{source, path}] for every post and page, from Hexo's own loaded locals.
const path = require("path");
const dir = process.argv[2];
const Hexo = require(path.join(dir, "node_modules", "hexo"));
const hexo = new Hexo(dir, { silent: true });
(async () => {
  await hexo.init();
  await hexo.load();
  const rows = [];
  for (const kind of ["posts", "pages"]) {
    hexo.locals.get(kind).forEach((p) => {
      rows.push({ source: path.relative(dir, p.full_source), path: "/" + p.path });
    });
  }
  process.stdout.write(JSON.stringify(rows));
  await hexo.exit();
})();
