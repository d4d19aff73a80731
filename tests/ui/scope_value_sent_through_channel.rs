// A reference into a scope cannot be sent to a thread that may outlive the scope.
use arena_kit::BlockPool;

fn main() {
    let pool = BlockPool::new();
    let (tx, rx) = std::sync::mpsc::channel::<&'static u32>();
    let t = std::thread::spawn(move || println!("{}", rx.recv().unwrap()));
    {
        let scope = pool.scope();
        tx.send(scope.alloc(5)).unwrap();
    }
    t.join().unwrap();
}
