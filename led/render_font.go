package led

// glyphs is a 5x7 pixel font for the few characters the board pictures need:
// the coordinates (a-h, 1-8), the men's letters (K Q R B N P) and the times
// under the phases of a single-colour matrix ("625 ms"). Each glyph is seven
// rows of five columns, '#' for ink.
func glyph(c byte) (rows [7]string, ok bool) {
	switch c {
	case 'a':
		return [7]string{".....", ".....", ".###.", "....#", ".####", "#...#", ".####"}, true
	case 'b':
		return [7]string{"#....", "#....", "#.##.", "##..#", "#...#", "#...#", "####."}, true
	case 'c':
		return [7]string{".....", ".....", ".###.", "#....", "#....", "#...#", ".###."}, true
	case 'd':
		return [7]string{"....#", "....#", ".##.#", "#..##", "#...#", "#...#", ".####"}, true
	case 'e':
		return [7]string{".....", ".....", ".###.", "#...#", "#####", "#....", ".###."}, true
	case 'f':
		return [7]string{"..##.", ".#..#", ".#...", "###..", ".#...", ".#...", ".#..."}, true
	case 'g':
		return [7]string{".....", ".####", "#...#", "#...#", ".####", "....#", ".###."}, true
	case 'h':
		return [7]string{"#....", "#....", "#.##.", "##..#", "#...#", "#...#", "#...#"}, true
	case 'm':
		return [7]string{".....", ".....", "##.#.", "#.#.#", "#.#.#", "#...#", "#...#"}, true
	case 's':
		return [7]string{".....", ".....", ".####", "#....", ".###.", "....#", "####."}, true
	case '0':
		return [7]string{".###.", "#...#", "#..##", "#.#.#", "##..#", "#...#", ".###."}, true
	case '1':
		return [7]string{"..#..", ".##..", "..#..", "..#..", "..#..", "..#..", ".###."}, true
	case '2':
		return [7]string{".###.", "#...#", "....#", "...#.", "..#..", ".#...", "#####"}, true
	case '3':
		return [7]string{"#####", "...#.", "..#..", "...#.", "....#", "#...#", ".###."}, true
	case '4':
		return [7]string{"...#.", "..##.", ".#.#.", "#..#.", "#####", "...#.", "...#."}, true
	case '5':
		return [7]string{"#####", "#....", "####.", "....#", "....#", "#...#", ".###."}, true
	case '6':
		return [7]string{"..##.", ".#...", "#....", "####.", "#...#", "#...#", ".###."}, true
	case '7':
		return [7]string{"#####", "....#", "...#.", "..#..", ".#...", ".#...", ".#..."}, true
	case '8':
		return [7]string{".###.", "#...#", "#...#", ".###.", "#...#", "#...#", ".###."}, true
	case '9':
		return [7]string{".###.", "#...#", "#...#", ".####", "....#", "...#.", ".##.."}, true
	case 'K':
		return [7]string{"#...#", "#..#.", "#.#..", "##...", "#.#..", "#..#.", "#...#"}, true
	case 'Q':
		return [7]string{".###.", "#...#", "#...#", "#...#", "#.#.#", "#..#.", ".##.#"}, true
	case 'R':
		return [7]string{"####.", "#...#", "#...#", "####.", "#.#..", "#..#.", "#...#"}, true
	case 'B':
		return [7]string{"####.", "#...#", "#...#", "####.", "#...#", "#...#", "####."}, true
	case 'N':
		return [7]string{"#...#", "#...#", "##..#", "#.#.#", "#..##", "#...#", "#...#"}, true
	case 'P':
		return [7]string{"####.", "#...#", "#...#", "####.", "#....", "#....", "#...."}, true
	case ' ':
		return [7]string{".....", ".....", ".....", ".....", ".....", ".....", "....."}, true
	}
	return rows, false
}
