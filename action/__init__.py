"""The GitHub Action's own code (action.yml runs it with the action's folder first on
PYTHONPATH). A regular package, not a namespace one: a folder ``action`` elsewhere on sys.path
(a dependency's, the workspace's) can never take its place, as a regular package would take a
namespace package's."""
