# Sourced by history.sh and million.sh: hyperfine runs saved as JSON, and table rows of ratios.
# Needs $news, $work (homes below it) and the array runs (hyperfine's run options) set first.

# The command line of `news <arguments>` in the home $work/<home>: at <home> <arguments>…
at() { echo "env NEWS_HOME=$work/$1 $news ${*:2}"; }
json="$work/json"
mkdir -p "$json"
# bench <name> <hyperfine arguments>…: one hyperfine run, kept as $json/<name>.json.
bench() { local name=$1; shift; hyperfine -N "${runs[@]}" --export-json "$json/$name.json" "$@" >&2; }
# mean <name> <index>: the mean seconds of command <index> of run <name>.
mean() { jq -r ".results[$2].mean" "$json/$1.json"; }
# row <label> <name> <ours> <baseline> <baseline label> <target>: a table row of two means.
row() {
  python3 -c "import sys; o,b=float(sys.argv[2]),float(sys.argv[3]); print(f'| {sys.argv[1]} | {o*1000:.1f} ms | {b*1000:.1f} ms ({sys.argv[4]}) | {o/b:.2f}× | {sys.argv[5]} |')" \
    "$1" "$(mean "$2" "$3")" "$(mean "$2" "$4")" "$5" "$6"
}
