// Package htmlpage writes self-contained HTML pages: one file that opens in a
// browser without a network, with its style sheet and script embedded (the
// assets directory, compiled in with go:embed) and its charts drawn as inline
// SVG at generation time.
//
// A Page is a title and a list of Sections, each a list of Blocks. The blocks
// provided are:
//
//   - Paragraph: a line of text;
//   - Stats: labelled figures shown as a row of cards;
//   - Table: a table with a header, optionally sortable by clicking a column
//     header (the embedded script does the sorting, the page reads without it);
//   - LineChart: an SVG line chart of one or more series over a numeric x axis,
//     with axes, ticks, a legend, and a tooltip per point;
//   - Pre: preformatted text;
//   - Raw: HTML the caller built itself (for example a diagram), trusted as is.
//
// All text is escaped by html/template rules; only Raw is not. Output is
// deterministic: the same Page writes the same bytes, so pages can be golden
// files and generated pages can be compared across runs. Nothing in a page
// depends on the time or place it was written.
//
// The embedded script is an enhancement: tables sort, chart points and
// elements with a data-ref attribute highlight their partners on hover and
// click. When it has run it sets data-ready="1" on the body element, which
// browser tests can wait for. Package headless runs such tests in a real
// (headless Chromium) browser.
//
// A page of another tool is built the same way: sections of blocks, with Raw
// for its own drawings and Page.CSS for their style.
package htmlpage
