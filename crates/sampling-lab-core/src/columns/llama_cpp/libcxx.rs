//! libc++'s heap algorithms, as its `std::partial_sort` runs them: which of equal elements end up
//! where is theirs, and llama.cpp's top-k inherits it (emscripten's libc++, in wllama's wasm).

/// `std::partial_sort(first, first + middle, last, comp)`: a heap of the first `middle`, every
/// later element that beats its top swapped in, then the heap sorted.
pub(crate) fn partial_sort<T: Copy>(v: &mut [T], middle: usize, comp: impl Fn(&T, &T) -> bool + Copy) {
    if middle == 0 {
        return;
    }
    make_heap(&mut v[..middle], comp);
    for i in middle..v.len() {
        if comp(&v[i], &v[0]) {
            v.swap(i, 0);
            sift_down(&mut v[..middle], comp, 0);
        }
    }
    sort_heap(&mut v[..middle], comp);
}

fn make_heap<T: Copy>(v: &mut [T], comp: impl Fn(&T, &T) -> bool + Copy) {
    let n = v.len();
    if n > 1 {
        for start in (0..n / 2).rev() {
            sift_down(v, comp, start);
        }
    }
}

/// `__sift_down`: the element at `start` moves down past its larger child until in order.
fn sift_down<T: Copy>(v: &mut [T], comp: impl Fn(&T, &T) -> bool, mut start: usize) {
    let len = v.len();
    if len < 2 || (len - 2) / 2 < start {
        return;
    }
    let mut child = 2 * start + 1;
    if child + 1 < len && comp(&v[child], &v[child + 1]) {
        child += 1;
    }
    if comp(&v[child], &v[start]) {
        return;
    }
    let top = v[start];
    loop {
        v[start] = v[child];
        start = child;
        if (len - 2) / 2 < child {
            break;
        }
        child = 2 * child + 1;
        if child + 1 < len && comp(&v[child], &v[child + 1]) {
            child += 1;
        }
        if comp(&v[child], &top) {
            break;
        }
    }
    v[start] = top;
}

fn sort_heap<T: Copy>(v: &mut [T], comp: impl Fn(&T, &T) -> bool + Copy) {
    for n in (2..=v.len()).rev() {
        pop_heap(&mut v[..n], comp);
    }
}

/// `__pop_heap`: the top to the end, by Floyd's sift-down of the hole and a sift-up.
fn pop_heap<T: Copy>(v: &mut [T], comp: impl Fn(&T, &T) -> bool + Copy) {
    let len = v.len();
    let top = v[0];
    let hole = floyd_sift_down(v, comp);
    let last = len - 1;
    if hole == last {
        v[hole] = top;
    } else {
        v[hole] = v[last];
        v[last] = top;
        sift_up(&mut v[..hole + 1], comp);
    }
}

/// `__floyd_sift_down`: the hole at the top walks down to a leaf along the larger children.
fn floyd_sift_down<T: Copy>(v: &mut [T], comp: impl Fn(&T, &T) -> bool) -> usize {
    let len = v.len();
    let (mut hole, mut child) = (0, 0);
    loop {
        let mut child_i = hole + child + 1;
        child = 2 * child + 1;
        if child + 1 < len && comp(&v[child_i], &v[child_i + 1]) {
            child_i += 1;
            child += 1;
        }
        v[hole] = v[child_i];
        hole = child_i;
        if child > (len - 2) / 2 {
            return hole;
        }
    }
}

/// `__sift_up`: the last element moves up past smaller parents.
fn sift_up<T: Copy>(v: &mut [T], comp: impl Fn(&T, &T) -> bool) {
    let len = v.len();
    if len <= 1 {
        return;
    }
    let mut bottom = len - 1;
    let mut parent = (bottom - 1) / 2;
    if comp(&v[parent], &v[bottom]) {
        let t = v[bottom];
        loop {
            v[bottom] = v[parent];
            bottom = parent;
            if parent == 0 {
                break;
            }
            parent = (parent - 1) / 2;
            if !comp(&v[parent], &t) {
                break;
            }
        }
        v[bottom] = t;
    }
}
