/**
 * The texts the matrix workflow adds to the single-list one (matrix-workflow.ts puts them in place):
 * its header, its inputs, the job that lists the task lists, the matrix, and the jobs that gather,
 * integrate and push the loops' work.
 */

export const MATRIX_HEADER = `# ralph: run every task list under ralph/lists/ on GitHub Actions, one job each, and bring the
# results back as one branch (written by \`ralph init --ci github --matrix\`).
# Start it from the Actions tab (Run workflow). It needs the repository secret __AGENT_SECRET__.
# Job \`lists\` lists the task lists (\`ralph lists --json\`); a list with dependsOn is left for a
# later run, once its dependencies' work is merged. Job \`agent\` runs one loop per list (a matrix,
# at most max-parallel at once, none cancelled when another fails); each list's branch is pushed
# by \`push\` as the single-list workflow does. Job \`integrate\` gathers every loop's last-run.json
# into one table, runs \`ralph integrate\` (the complete lists' branches merged one at a time, the
# quality gates after each) and hands the integration branch over as a bundle; \`push-integration\`
# pushes it as a new branch, and with open-pr one pull request is opened for it. See docs/ci.md.
#
# The trust boundary is the single-list workflow's: the jobs that run what the agent wrote (its
# loop, the gates on the merged result) hold no token that can write; the jobs that push read the
# bundles as data and run nothing of them.`;

export const MAX_PARALLEL_INPUT = `      max-parallel:
        description: How many task lists run at once (a number)
        type: string
        default: '4'
      answer-list:
        description: With answer, the task list whose loop waits for it (its name under ralph/lists/)
        type: string
        default: ''
`;

export const LISTS_JOB = `  # The task lists to run, as a JSON array of names for the matrix.
  lists:
    runs-on: ubuntu-latest
    timeout-minutes: 10
    permissions:
      contents: read
    outputs:
      lists: \${{ steps.lists.outputs.lists }}
    steps:
      - uses: actions/checkout@v4
        with:
          persist-credentials: false
          fetch-depth: 0

      - uses: actions/setup-node@v4
        with:
          node-version: 22

      - name: Install ralph
        run: npm install -g __RALPH_INSTALL__

      # Read as data. A list that depends on others waits for a run after their work is merged. An
      # answer is for one loop: which one is named, or the run stops here before any agent starts.
      - name: List the task lists
        id: lists
        env:
          ANSWERED: \${{ inputs.answer != '' }}
          ANSWER_LIST: \${{ inputs.answer-list }}
        run: |
          ralph lists --json > "$RUNNER_TEMP/lists.json"
          lists=$(node -e '
            const { lists } = JSON.parse(require("node:fs").readFileSync(process.argv[1], "utf8"));
            const named = lists.filter((list) => typeof list.name === "string" && /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(list.name));
            for (const list of named.filter((list) => list.dependsOn.length > 0))
              console.error("::notice title=ralph::" + list.name + " waits for " + list.dependsOn.join(", ") + ": run it after their work is merged");
            const runs = named.filter((list) => list.dependsOn.length === 0).map((list) => list.name);
            if (process.env.ANSWERED === "true" && !runs.includes(process.env.ANSWER_LIST)) {
              console.error("::error title=ralph::The answer input needs answer-list, the task list whose loop waits: one of " + runs.join(", "));
              process.exit(1);
            }
            console.log(JSON.stringify(runs));
          ' "$RUNNER_TEMP/lists.json")
          echo "lists=$lists" >> "$GITHUB_OUTPUT"
          echo "Task lists: $lists" >> "$GITHUB_STEP_SUMMARY"

`;

export const MATRIX = `    strategy:
      fail-fast: false
      max-parallel: \${{ fromJSON(inputs.max-parallel) }}
      matrix:
        list: \${{ fromJSON(needs.lists.outputs.lists) }}
    env:
      LIST: \${{ matrix.list }}
      RALPH_TASKS: ralph/lists/\${{ matrix.list }}.json
`;

export const INTEGRATE_JOBS = `  # Every loop's ending in one table, then the complete lists' branches merged and checked. The
  # gates run what the agents wrote: no token that can write here; the branch leaves as a bundle.
  integrate:
    needs: [lists, agent, push]
    if: \${{ !cancelled() && needs.lists.outputs.lists != '[]' }}
    runs-on: ubuntu-latest
    timeout-minutes: 120
    permissions:
      contents: read
    outputs:
      branch: \${{ steps.integrate.outputs.branch }}
      code: \${{ steps.integrate.outputs.code }}
    steps:
      - uses: actions/checkout@v4
        with:
          persist-credentials: false
          fetch-depth: 0

      - uses: actions/setup-node@v4
        with:
          node-version: 22

      - name: Install ralph
        run: npm install -g __RALPH_INSTALL__

      - uses: actions/download-artifact@v4
        with:
          pattern: ralph-logs-*
          path: \${{ runner.temp }}/ralph-lists

      # Each list's branch, as its push job named it (its branchName, else ralph/<list>), read as data
      # once: one per line in the order of the lists, for the table and the integration below.
      - name: Name each list's branch
        env:
          LISTS: \${{ needs.lists.outputs.lists }}
        run: |
          node -e '
            const fs = require("node:fs");
            for (const list of JSON.parse(process.env.LISTS)) {
              let branch = "ralph/" + list;
              try {
                branch = JSON.parse(fs.readFileSync("ralph/lists/" + list + ".json", "utf8")).branchName || branch;
              } catch {}
              console.log(String(branch).replace(/[\\r\\n]+/g, " "));
            }
          ' > "$RUNNER_TEMP/ralph-list-branches"

      # Read as data; every cell is an agent's run's record, so no cell can break the table.
      - name: Gather the loops' endings
        env:
          LISTS: \${{ needs.lists.outputs.lists }}
        run: |
          node -e '
            const fs = require("node:fs");
            const branches = fs.readFileSync(process.env.RUNNER_TEMP + "/ralph-list-branches", "utf8").split("\\n");
            const cell = (value) => String(value ?? "-").replace(/[\\r\\n]+/g, " ").replace(/[|<>\`\\\\]/g, (c) => "&#" + c.charCodeAt(0) + ";").slice(0, 200);
            const rows = JSON.parse(process.env.LISTS).map((list, index) => {
              let run = {};
              try {
                run = JSON.parse(fs.readFileSync(process.env.RUNNER_TEMP + "/ralph-lists/ralph-logs-" + list + "/logs/last-run.json", "utf8"));
              } catch {
                run = { reason: "no record (the job did not run or did not start)" };
              }
              const cost = typeof run.costUsd === "number" ? "$" + run.costUsd.toFixed(2) : "-";
              return "| " + [list, run.reason, run.iterations, cost, branches[index]].map(cell).join(" | ") + " |";
            });
            console.log(["## ralph: the task lists", "", "| list | ending | iterations | cost | branch |", "|---|---|---|---|---|", ...rows].join("\\n"));
          ' >> "$GITHUB_STEP_SUMMARY"

      - name: Configure git (integration merges are commits)
        run: |
          git config user.name "ralph[bot]"
          git config user.email "ralph-bot@users.noreply.github.com"

      # Each list's branch as pushed, as a local branch: ralph integrate reads refs/heads/. Each
      # name is checked as git checks a branch name.
      - name: Integrate the complete lists
        id: integrate
        run: |
          while IFS= read -r branch; do
            git check-ref-format --branch "$branch" >/dev/null 2>&1 || continue
            case "$branch" in ralph/integration/*) continue ;; esac
            [ "$branch" = "$(git branch --show-current)" ] && continue
            if git rev-parse --verify --quiet "refs/remotes/origin/$branch" >/dev/null; then
              git branch --quiet --force "$branch" "refs/remotes/origin/$branch"
            fi
          done < "$RUNNER_TEMP/ralph-list-branches"
          branch="ralph/integration/$(date -u +%Y-%m-%d)-\${GITHUB_RUN_ID}"
          code=0
          ralph integrate --into "$branch" || code=$?
          # From here on nothing the gates left may act (see the agent job's Run ralph step).
          : > "$GITHUB_ENV"
          : > "$GITHUB_PATH"
          export PATH=/usr/bin:/bin HOME="$RUNNER_TEMP/ralph-empty-home" GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
          hash -r
          safe_git() { git -c core.fsmonitor=false -c core.hooksPath=/dev/null "$@"; }
          echo "code=$code" >> "$GITHUB_OUTPUT"
          mkdir -p "$RUNNER_TEMP/ralph-integration"
          git rev-parse HEAD > "$RUNNER_TEMP/ralph-integration/start"
          if safe_git rev-parse --verify --quiet "refs/heads/\${branch}^{commit}" > /dev/null; then
            safe_git bundle create --quiet "$RUNNER_TEMP/ralph-integration/integration.bundle" "refs/heads/$branch" "^HEAD"
            echo "branch=$branch" >> "$GITHUB_OUTPUT"
          fi
          cp ralph/logs/integrate-last-run.json "$RUNNER_TEMP/ralph-integration/" 2> /dev/null || true
          # 2: a branch was left out (named above); a human decides. Anything else but 0 fails the job.
          case "$code" in
            0 | 2) exit 0 ;;
            *) exit "$code" ;;
          esac

      - name: Hand over the integration branch
        if: always() && steps.integrate.outputs.branch != ''
        uses: actions/upload-artifact@v4
        with:
          name: ralph-integration
          path: \${{ runner.temp }}/ralph-integration/
          if-no-files-found: error

  # A fresh runner: the bundle, read as data, must hold exactly the new integration branch on top
  # of the dispatched commit; it is pushed as a new branch, never over one.
  push-integration:
    needs: integrate
    if: \${{ !cancelled() && needs.integrate.outputs.branch != '' }}
    runs-on: ubuntu-latest
    timeout-minutes: 15
    permissions:
      contents: write
    steps:
      - uses: actions/checkout@v4
        with:
          persist-credentials: false
          fetch-depth: 0

      - uses: actions/download-artifact@v4
        with:
          name: ralph-integration
          path: \${{ runner.temp }}/ralph-integration

      - name: Check and push the integration branch
        env:
          GH_TOKEN: \${{ github.token }}
          BRANCH: \${{ needs.integrate.outputs.branch }}
        run: |
          refuse() {
            echo "::error title=ralph: bundle refused::$1"
            exit 1
          }
          case "$BRANCH" in ralph/integration/*) ;; *) refuse "not an integration branch: $BRANCH" ;; esac
          git check-ref-format --branch "$BRANCH" > /dev/null
          dir="$RUNNER_TEMP/ralph-integration"
          start=$(git rev-parse HEAD)
          [ "$(cat "$dir/start" 2> /dev/null || true)" = "$start" ] || refuse "the integration did not start at the dispatched commit $start"
          git bundle verify --quiet "$dir/integration.bundle" > /dev/null 2>&1 || refuse "the bundle is not one git can apply on top of $start"
          heads=$(git bundle list-heads "$dir/integration.bundle")
          if [ "$(printf '%s\\n' "$heads" | wc -l)" -ne 1 ] || [ "\${heads#* }" != "refs/heads/$BRANCH" ]; then
            refuse "the bundle must hold exactly refs/heads/$BRANCH; it holds: $(printf '%s' "$heads" | tr '\\n' ' ')"
          fi
          if git rev-parse --verify --quiet "refs/remotes/origin/\${BRANCH}^{commit}" > /dev/null; then
            refuse "$BRANCH exists on GitHub already: it is never pushed over"
          fi
          git -c transfer.fsckObjects=true fetch --quiet --no-tags --no-write-fetch-head "$dir/integration.bundle" "refs/heads/$BRANCH:refs/ralph/integration"
          git merge-base --is-ancestor "$start" refs/ralph/integration || refuse "the bundle's $BRANCH does not descend from $start"
          git -c core.hooksPath=/dev/null push --no-verify --quiet "https://x-access-token:\${GH_TOKEN}@\${GITHUB_SERVER_URL#https://}/\${GITHUB_REPOSITORY}.git" "refs/ralph/integration:refs/heads/$BRANCH"
          echo "The integration branch is \\\`$BRANCH\\\`." >> "$GITHUB_STEP_SUMMARY"

  # Only with open-pr: the one job that may write pull requests, after the push.
  pull-request:
    needs: [integrate, push-integration]
    if: inputs.open-pr && needs.push-integration.result == 'success'
    runs-on: ubuntu-latest
    timeout-minutes: 10
    permissions:
      contents: read
      pull-requests: write
    steps:
      - name: Open the pull request
        env:
          GH_TOKEN: \${{ github.token }}
          BRANCH: \${{ needs.integrate.outputs.branch }}
          BASE: \${{ github.ref_name }}
        # No checkout: gh names the repository and reads no git config. The body is ralph's.
        run: |
          git check-ref-format --branch "$BRANCH" > /dev/null
          body="The task lists of ralph's run \${GITHUB_SERVER_URL}/\${GITHUB_REPOSITORY}/actions/runs/\${GITHUB_RUN_ID}, merged and checked by the quality gates (its job summary names what was left out and why)."
          gh pr create --repo "$GITHUB_REPOSITORY" --head "$BRANCH" --base "$BASE" --title "ralph: $BRANCH" --body "$body"
`;

export const ANSWER_LIST_ENV = `          ANSWER: \${{ inputs.answer }}
          ANSWER_LIST: \${{ inputs.answer-list }}
`;

export const EXACT_LIST_GUARD = `          [ "$ANSWER_LIST" = "$LIST" ] || exit 0
          ralph answer -- "$ANSWER"
`;
