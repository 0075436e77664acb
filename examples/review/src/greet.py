def greet(name):
    # TODO: validate the name
    return "Hello, " + name   
