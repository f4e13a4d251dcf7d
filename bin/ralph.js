#!/usr/bin/env node
// The executable's old name, kept for what still calls it by path (a Stop hook written as
// `node …/bin/ralph.js hook stop`): bin/ralph.cjs is the executable.
import './ralph.cjs';
