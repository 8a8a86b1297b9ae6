package main

func visibleFunc(countValue int) int {
	return countValue + 1
}

/* this comment is never closed
func hiddenFunc(hiddenParam int) int {
	return hiddenParam
}
