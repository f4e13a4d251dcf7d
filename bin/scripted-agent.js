#!/usr/bin/env node
// The scripted stand-in for `claude -p` used by `ralph demo` and the end-to-end tests.
import '../dist/demo/scripted-agent.js';
