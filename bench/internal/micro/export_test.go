package micro

// AnalyzeByEnumeration exposes the reference analysis to the tests.
var AnalyzeByEnumeration = analyzeByEnumeration
