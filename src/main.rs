fn main() {
    println!("rensa skeleton");
}
