"""Greets people, as many times as they ask."""


def greet(name):
    if name == None:
        name = "world"
    try:
        count = eval(input("how many times? "))
    except:
        count = 1
    return ("hello " + name + "\n") * count
